// Unit tests of the relay's key scrub: an upstream error body that echoes the channel key carries its hint instead, and other bytes pass as they are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scrubBytes } from '../../../electron/gateway/providers/relay/key-scrub.ts';

const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';

test('every echo of the key in an error body becomes its hint; bytes around it are kept', () => {
  const body = Buffer.from(`{"error":{"message":"Incorrect API key provided: ${key}. Key ${key} is wrong — é"}}`);
  const scrubbed = Buffer.from(scrubBytes(body, key)).toString('utf8');
  assert.equal(scrubbed.includes(key), false);
  assert.equal(scrubbed, '{"error":{"message":"Incorrect API key provided: sk-…2345. Key sk-…2345 is wrong — é"}}');
});

test('a body without the key, or a channel without one, passes byte for byte', () => {
  const body = Buffer.from([0xff, 0x00, 0x41, 0x42]);
  assert.equal(scrubBytes(body, key), body);
  assert.equal(scrubBytes(body, null), body);
});

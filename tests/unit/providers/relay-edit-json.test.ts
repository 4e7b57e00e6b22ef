// Unit tests of the body a relay sends: untouched bytes when nothing changes; otherwise the edit, made on a copy of the body the gateway already parsed (never on that body itself) or on a fresh parse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editJson } from '../../../electron/gateway/providers/relay/kind.ts';
import { openaiKind } from '../../../electron/gateway/providers/relay/openai/kind.ts';
import type { RelayChannel } from '../../../electron/gateway/providers/types.ts';

const raw = Buffer.from('{"model":"mine","stream":true,"messages":[{"role":"user","content":"hi"}],"stream_options":{"x":1}}');
const channel = { upstreamModel: 'theirs' } as RelayChannel;
const asked = { operation: 'chat', model: 'mine', stream: true } as const;

test('a body that needs no change goes as the very bytes received', () => {
  const parsed = JSON.parse(raw.toString('utf8')) as unknown;
  assert.equal(
    editJson(raw, () => false, parsed),
    raw,
  );
  assert.equal(
    editJson(raw, () => false),
    raw,
  );
});

test('a changed body is the same with or without the parsed body, and the parsed body is left as it was', () => {
  const parsed = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  const before = structuredClone(parsed);
  const fromParsed = openaiKind.prepare(raw, channel, asked, parsed);
  const fromRaw = openaiKind.prepare(raw, channel, asked);
  assert.deepEqual(fromParsed, fromRaw);
  assert.equal(fromParsed.hideUsage, true);
  assert.deepEqual(JSON.parse(fromParsed.body.toString('utf8')), {
    ...before,
    model: 'theirs',
    stream_options: { x: 1, include_usage: true },
  });
  assert.deepEqual(parsed, before, "the route's parsed body (the journal reads its model) is not changed");
});

test('a body that is not a JSON object goes as received', () => {
  for (const text of ['[1,2]', 'not json', '"text"']) {
    const bytes = Buffer.from(text);
    assert.equal(
      editJson(bytes, () => true),
      bytes,
    );
  }
});

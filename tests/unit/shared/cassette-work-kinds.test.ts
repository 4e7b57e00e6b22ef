// Unit tests of the realtime, portrait and 3D cassette shapes as the reader checks them: a sound one reads, a damaged one is named by file and field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CassetteError } from '../../../shared/cassette.ts';
import { parseCassette } from '../../../shared/cassette-reader.ts';

const KEY = 'ab'.repeat(32);
const BLOB = { file: 'blob-1.bin', bytes: 3, sha256: 'cd'.repeat(32) };

/** A cassette of `kind` with `fields`, under a name carrying its key's hash. */
function read(kind: string, fields: Record<string, unknown>) {
  const cassette = {
    format: 1,
    kind,
    recording: { recordedAt: '2026-11-22T10:00:00.000+00:00', mode: 'relay', channel: 'up', protocol: 'realtime' },
    request: { method: 'GET', path: '/v1/realtime', model: 'sim-realtime', normal: {}, key: KEY, stream: false },
    sequence: 1,
    ...fields,
  };
  return parseCassette(JSON.stringify(cassette), `m.${KEY.slice(0, 16)}.json`);
}

/** The file and field a damaged cassette is refused with. */
function refusal(kind: string, fields: Record<string, unknown>): string {
  try {
    read(kind, fields);
  } catch (error) {
    assert.ok(error instanceof CassetteError);
    return `${error.file} ${error.field}: ${error.message.split(': ').at(-1)}`;
  }
  assert.fail('the cassette was read');
}

test('a realtime cassette reads with text, big-text and binary frames and a close', () => {
  const frames = [
    { atMs: 0, from: 'upstream', text: '{"type":"session.created"}' },
    { atMs: 5, from: 'client', textBlob: BLOB },
    { atMs: 9, from: 'upstream', binary: { base64: 'AAEC' } },
  ];
  const cassette = read('realtime', { frames, close: { atMs: 12, from: 'client', code: 1000, reason: '' } });
  assert.equal(cassette.kind, 'realtime');
});

test('a realtime frame with no payload, two payloads, another side or a bad close is refused naming the field', () => {
  const name = `m.${KEY.slice(0, 16)}.json`;
  assert.equal(
    refusal('realtime', { frames: [{ atMs: 0, from: 'upstream' }] }),
    `${name} frames[0]: must have exactly one of text, textBlob and binary`,
  );
  assert.equal(
    refusal('realtime', { frames: [{ atMs: 0, from: 'upstream', text: 'a', binary: { base64: 'AA==' } }] }),
    `${name} frames[0]: must have exactly one of text, textBlob and binary`,
  );
  assert.equal(
    refusal('realtime', { frames: [{ atMs: 0, from: 'server', text: 'a' }] }),
    `${name} frames[0].from: must be one of client, upstream`,
  );
  assert.equal(
    refusal('realtime', { frames: [], close: { atMs: 0, from: 'client', code: 'x', reason: '' } }),
    `${name} close.code: must be a whole number of at least 0`,
  );
  assert.equal(
    refusal('realtime', { frames: [{ atMs: 0, from: 'client', textBlob: { ...BLOB, file: '../x' } }] }).startsWith(
      `${name} frames[0].textBlob.file`,
    ),
    true,
  );
});

test('portrait observations and 3D progress must keep time order and known statuses', () => {
  const name = `m.${KEY.slice(0, 16)}.json`;
  const observations = [
    { atMs: 0, status: 'Processing', refreshError: 'busy' },
    { atMs: 10, status: 'Active', resolvedUrl: 'asset://a' },
  ];
  assert.equal(read('portrait', { observations }).kind, 'portrait');
  assert.equal(
    refusal('portrait', { observations: [...observations, { atMs: 5, status: 'Failed' }] }),
    `${name} observations[2].atMs: must not go back in time`,
  );
  assert.equal(
    refusal('portrait', { observations: [{ atMs: 0, status: 'Done' }] }),
    `${name} observations[0].status: must be one of Processing, Active, Failed`,
  );
  const progress = [
    { atMs: 0, status: 'SUBMITTED', progress: 0 },
    { atMs: 20, status: 'SUCCESS', progress: 100 },
  ];
  assert.equal(read('task3d', { progress, files: [{ name: 'result.glb', blob: BLOB }] }).kind, 'task3d');
  assert.equal(
    refusal('task3d', { progress: [{ atMs: 0, status: 'SUCCESS', progress: -1 }], files: [] }),
    `${name} progress[0].progress: must be a whole number of at least 0`,
  );
});

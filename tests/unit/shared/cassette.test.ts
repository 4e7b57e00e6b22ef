// Unit tests of the cassette format's reader and file names: a damaged cassette is refused naming its file and field, names carry the slug, hash and sequence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CassetteError, MAX_BLOB_BYTES } from '../../../shared/cassette.ts';
import { cassetteFileName, cassetteNameParts } from '../../../shared/cassette-names.ts';
import { MAX_CASSETTE_DEPTH, parseCassette } from '../../../shared/cassette-reader.ts';

const KEY = 'ab'.repeat(32);
const cassette = () => ({
  format: 1,
  kind: 'http',
  recording: { recordedAt: '2026-11-26T10:00:00.000+00:00', mode: 'relay', channel: 'up', protocol: 'openai' },
  request: { method: 'POST', path: '/v1/embeddings', model: 'm', normal: {}, key: KEY, stream: false },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: { text: '{}' }, durationMs: 3 },
  sequence: 1,
});
const NAME = cassetteFileName(KEY, 'm', 'hello there', 1);

function refused(edit: (value: any) => void, field: string, file = NAME): void {
  const value = cassette();
  edit(value);
  assert.throws(
    () => parseCassette(JSON.stringify(value), file),
    (error: unknown) =>
      error instanceof CassetteError && error.file === file && error.field === field && error.message.startsWith(`${file} ${field}: `),
  );
}

test('a whole cassette reads back; each damage is named by file and field', () => {
  assert.equal(parseCassette(JSON.stringify(cassette()), NAME).kind, 'http');
  refused((value) => (value.format = 2), 'format');
  refused((value) => (value.kind = 'tape'), 'kind');
  refused((value) => delete value.response.status, 'response.status');
  refused((value) => (value.response.status = 700), 'response.status');
  refused((value) => (value.response.events = []), 'response');
  refused((value) => (value.response.body = { blob: { file: '../x.bin', bytes: 1, sha256: 'a'.repeat(64) } }), 'response.body.blob.file');
  refused(
    (value) => (value.response.body = { blob: { file: '/etc/passwd', bytes: 1, sha256: 'a'.repeat(64) } }),
    'response.body.blob.file',
  );
  refused(
    (value) => (value.response.body = { blob: { file: 'blob-a.bin', bytes: MAX_BLOB_BYTES + 1, sha256: 'a'.repeat(64) } }),
    'response.body.blob.bytes',
  );
  refused((value) => (value.response.headers['x-n'] = 5), 'response.headers.x-n');
  refused((value) => (value.request.key = 'cd'.repeat(32)), 'request.key');
  refused((value) => (value.sequence = 0), 'sequence');
  assert.throws(
    () => parseCassette('{"format":1', NAME),
    (error: unknown) => error instanceof CassetteError && /is not JSON/.test(error.message),
  );
});

test('file names: a slug of the model and first words, the key hash, the sequence from the second on', () => {
  assert.equal(NAME, `m-hello-there.${'ab'.repeat(8)}.json`);
  assert.equal(
    cassetteFileName(KEY, 'GPT-4o', 'Ünïcode, punctuation!  and   spaces', 3),
    `gpt-4o-unicode-punctuation-and-spaces.${'ab'.repeat(8)}.3.json`,
  );
  assert.deepEqual(cassetteNameParts(NAME), { hash: 'ab'.repeat(8), sequence: 1 });
  assert.deepEqual(cassetteNameParts(`x.${'ab'.repeat(8)}.12.json`), { hash: 'ab'.repeat(8), sequence: 12 });
  assert.equal(cassetteNameParts('notes.json'), undefined);
  assert.ok(cassetteFileName(KEY, 'm', 'word '.repeat(100), 1).length < 100);
});

test('a nesting bomb is refused naming the file before it is parsed; nesting up to the bound reads', () => {
  const nested = (depth: number) => {
    const value = cassette() as any;
    // The envelope itself nests 3 levels (top, request, normal); strings holding brackets do not count.
    value.request.normal = { text: '[[[[{{{{' };
    const text = JSON.stringify(value);
    const inner = '['.repeat(depth - 3) + ']'.repeat(depth - 3);
    return text.replace('"normal":{', `"normal":{"deep":${inner},`);
  };
  assert.equal(parseCassette(nested(MAX_CASSETTE_DEPTH), NAME).kind, 'http');
  for (const depth of [MAX_CASSETTE_DEPTH + 1, 100_000])
    assert.throws(
      () => parseCassette(nested(depth), NAME),
      (error: unknown) =>
        error instanceof CassetteError && error.file === NAME && /nests \d+ levels deep, over the 256/.test(error.message),
    );
});

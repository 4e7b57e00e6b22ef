// Unit tests of the cassette folder on disk: two writers of one folder never clobber each other's cassettes, re-recording replaces a request's earlier cassettes and the payloads only they named, a symbolic link is never followed out of the folder.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { CassetteError, type HttpCassette } from '../../../../shared/cassette.ts';
import { normalRequest } from '../../../../electron/gateway/providers/replay/normal.ts';
import { MAX_CASSETTE_BYTES } from '../../../../electron/gateway/providers/replay/limits.ts';
import { CassetteStore } from '../../../../electron/gateway/providers/replay/store.ts';
import type { CassetteDraft } from '../../../../electron/gateway/providers/types.ts';
import { tempDirs } from '../../../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

const body = { model: 'embed-one', input: 'the same text' };

function draft(answer: string, blob?: { file: string; bytes: number; sha256: string }): CassetteDraft {
  const request = normalRequest({
    protocol: 'openai',
    method: 'POST',
    path: '/v1/embeddings',
    endpoint: '/v1/embeddings',
    model: null,
    body,
    stream: false,
  });
  return {
    kind: 'http',
    recording: { recordedAt: '2026-11-26T10:00:00.000+00:00', mode: 'relay', channel: 'up', protocol: 'openai' },
    request: { ...request, body },
    response: { status: 200, headers: {}, body: blob ? { blob } : { text: answer }, durationMs: 1 },
  };
}

test('two stores on one folder (two gateways recording into it) each add their recordings; none replaces another', async () => {
  const dir = dirs.fresh();
  const first = new CassetteStore(dir);
  const second = new CassetteStore(dir);
  const saved = await Promise.all(
    Array.from({ length: 20 }, (_, index) => [
      first.save(draft(`first ${index}`), 'the same text'),
      second.save(draft(`second ${index}`), 'the same text'),
    ]).flat(),
  );
  const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  assert.equal(files.length, 40, files.join(', '));
  assert.equal(new Set(saved.map((one) => one.file)).size, 40, 'each save names its own file');
  const answers = files.map((file) => (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as HttpCassette).response.body);
  assert.equal(new Set(answers.map((one) => JSON.stringify(one))).size, 40, 'every answer is on disk once');
  assert.deepEqual(
    new CassetteStore(dir)
      .list()
      .map((listing) => listing.sequence)
      .sort((a, b) => a - b),
    Array.from({ length: 40 }, (_, index) => index + 1),
  );
});

test('re-recording (replace): the first recording of a request replaces its earlier cassettes and the payloads only they named', async () => {
  const dir = dirs.fresh();
  const earlier = new CassetteStore(dir);
  const kept = await earlier.saveBlob(new TextEncoder().encode('a payload another request names too'));
  const only = await earlier.saveBlob(new TextEncoder().encode('a payload only the old recordings name'));
  await earlier.save(draft('old 1', only), 'the same text');
  await earlier.save(draft('old 2', kept), 'the same text');
  await earlier.save(draft('old 3'), 'the same text');
  const other = { ...draft('another request', kept) };
  other.request = { ...other.request, key: `f${other.request.key.slice(1)}` };
  await earlier.save(other, 'another');
  const cassettes = () =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort();
  assert.equal(cassettes().length, 4);

  const again = new CassetteStore(dir, { replace: true });
  const first = await again.save(draft('new 1'), 'the same text');
  const second = await again.save(draft('new 2'), 'the same text');
  assert.deepEqual([first.sequence, second.sequence], [1, 2]);
  const mine = cassettes().filter((file) => !file.includes('-another.'));
  assert.deepEqual(mine, [first.file, second.file].sort(), 'the third old recording is gone');
  const bodies = mine.map((file) => (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as HttpCassette).response.body);
  assert.deepEqual(
    bodies.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    [{ text: 'new 1' }, { text: 'new 2' }],
  );
  assert.ok(
    cassettes().some((file) => file.includes('-another.')),
    'another request keeps its cassette',
  );
  const blobs = readdirSync(dir).filter((file) => file.startsWith('blob-'));
  assert.deepEqual(blobs, [kept.file], 'the payload only the old recordings named is removed; the shared one stays');
  assert.deepEqual(
    new CassetteStore(dir).ofKey(draft('x').request.key).map((listing) => listing.sequence),
    [1, 2],
  );
  // Without replace, a recording is filed beside the folder's.
  const appended = await new CassetteStore(dir).save(draft('appended'), 'the same text');
  assert.equal(appended.sequence, 3);
});

test('re-recording keeps a payload a recording under way saved already, though only a replaced cassette named it before', async () => {
  const dir = dirs.fresh();
  const bytes = new TextEncoder().encode('an image two requests send');
  const earlier = new CassetteStore(dir);
  const image = await earlier.saveBlob(bytes);
  await earlier.save(draft('old', image), 'the same text');
  const again = new CassetteStore(dir, { replace: true });
  // Another request's recording saves the same bytes (kept once, under the same name) before its cassette is filed...
  const inFlight = await again.saveBlob(bytes);
  assert.equal(inFlight.file, image.file);
  // ...then the first request is recorded again: its old cassette goes, the payload the other recording names stays.
  await again.save(draft('new'), 'the same text');
  assert.ok(readdirSync(dir).includes(image.file), 'the payload of the recording under way is still there');
  const other = draft('another request', inFlight);
  other.request = { ...other.request, key: `f${other.request.key.slice(1)}` };
  const filed = await again.save(other, 'another');
  assert.doesNotThrow(() => again.checkBlob(inFlight, filed.file));
});

test('a cassette or a blob that is a symbolic link is refused naming it, never read through', async () => {
  const dir = dirs.fresh();
  const outside = path.join(dirs.fresh(), 'secret.txt');
  writeFileSync(outside, 'a file outside the cassette folder');
  const store = new CassetteStore(dir);
  const blob = await store.saveBlob(Buffer.from('a file outside the cassette folder'));
  const saved = await store.save(draft('', blob), 'the same text');
  // The blob swapped for a link to the same bytes outside the folder.
  const blobPath = path.join(dir, blob.file);
  rmSync(blobPath);
  symlinkSync(outside, blobPath);
  assert.throws(
    () => store.checkBlob(blob, saved.file),
    (error: unknown) => error instanceof CassetteError && error.file === saved.file && /is a symbolic link/.test(error.message),
  );
  await assert.rejects(
    async () => {
      for await (const chunk of store.blob(blob, saved.file)) void chunk;
    },
    (error: unknown) => error instanceof CassetteError && /is a symbolic link/.test(error.message),
  );
  // A cassette named as one, linked to a file elsewhere.
  const linked = path.join(dirs.fresh(), 'elsewhere.json');
  writeFileSync(linked, readFileSync(path.join(dir, saved.file)));
  const name = saved.file.replace('.json', '.2.json');
  symlinkSync(linked, path.join(dir, name));
  const again = new CassetteStore(dir);
  await assert.rejects(
    again.read(name),
    (error: unknown) => error instanceof CassetteError && error.file === name && /symbolic link/.test(error.message),
  );
  assert.throws(() => again.readSync(name), /symbolic link/);
});

test('a file named as a cassette but over MAX_CASSETTE_BYTES is refused naming it, before it is read', async () => {
  const dir = dirs.fresh();
  const store = new CassetteStore(dir);
  const saved = await store.save(draft('small'), 'the same text');
  const name = saved.file.replace('.json', '.2.json');
  writeFileSync(path.join(dir, name), Buffer.alloc(MAX_CASSETTE_BYTES + 1, 0x20));
  const again = new CassetteStore(dir);
  await assert.rejects(
    again.read(name),
    (error: unknown) =>
      error instanceof CassetteError && error.file === name && new RegExp(`over the ${MAX_CASSETTE_BYTES}`).test(error.message),
  );
  assert.equal((await again.read(saved.file)).kind, 'http', 'the others still read');
});

// Integration test of what a replayed call leaves behind, through a real gateway under --replay whose provider tells `noteReplay` (as replay does):
// the answer's x-gatehouse-source, the journal entry's source and cassette (list and detail), the admin API's cassette listing with the run's use, and the
// run's record in the folder that `gatehouse cassette list` reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CassetteStore } from '../../electron/gateway/providers/replay/store.ts';
import type { CassetteFolder } from '../../shared/cassette-admin.ts';
import { REPLAY_RUN_FILE } from '../../shared/cassette-admin.ts';
import type { JournalEntry, JournalPage } from '../../shared/journal.ts';
import { chatDraft } from '../helpers/cassettes.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { fakeProviders } from '../helpers/providers.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

describe('a call answered from a cassette', () => {
  let gw: TestGateway;
  let dir: string;
  let replayed: string;
  let other: string;
  const admin = <T>(route: string) => request<T>(`${gw.url}/admin/api${route}`, 'GET', { token: gw.gateway.adminToken });

  before(async () => {
    dir = dirs.fresh();
    const store = new CassetteStore(dir);
    replayed = (await store.save(chatDraft('Embed this', '[0.5]', { channel: 'openai-main' }), 'Embed this')).file;
    other = (await store.save(chatDraft('Say hello', 'Hello!'), 'Say hello')).file;
    // Stands in for the replay provider: it answers and tells the call context which cassette did.
    const providers = fakeProviders({
      embeddings: {
        async embed(request, call) {
          // A call asking for it is told as one replayed across protocols (a chat recorded from another client's).
          const across = request.inputs[0] === 'across protocols';
          call.noteReplay?.({
            file: replayed,
            sequence: 1,
            recordedAt: '2026-11-20T10:00:00.000+00:00',
            ...(across && { translatedFrom: 'anthropic' as const }),
          });
          return { vectors: request.inputs.map(() => Float32Array.from([0.5])), usage: { inputTokens: 3 } };
        },
      },
      models: {
        async list() {
          return [];
        },
        async describe() {
          return undefined;
        },
      },
    });
    gw = await startGateway({ providers, replay: { dir } });
  });
  after(() => gw?.stop());

  test('says so in its answer header, its journal entry and the cassette listing', async () => {
    const answer = await request(`${gw.url}/v1/embeddings`, 'POST', {
      token: gw.token,
      body: { model: 'text-embed', input: 'Embed this' },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-gatehouse-source'), `replay;cassette=${encodeURIComponent(replayed)}`);

    const entry = await eventually(async () => (await admin<JournalPage>('/journal')).body.items[0], 'the journal entry of the call');
    assert.equal(entry.source, 'replay');
    assert.equal(entry.cassette, replayed);
    const detail = (await admin<JournalEntry>(`/journal/${entry.id}`)).body;
    assert.equal(detail.source, 'replay');
    assert.equal(detail.cassette, replayed);
    assert.equal(detail.notes, undefined, 'a cassette of the same protocol needs no note');

    const folder = (await admin<CassetteFolder>('/cassettes')).body;
    assert.equal(folder.dir, dir);
    assert.equal(folder.mode, 'replay');
    assert.equal(folder.run?.replayed, 1);
    assert.deepEqual(
      folder.items.map((item) => [item.file, item.replayed, item.channel]).sort(),
      [
        [replayed, true, 'openai-main'],
        [other, false, null],
      ].sort(),
    );
    const unused = (await admin<CassetteFolder>('/cassettes?replayed=unused')).body;
    assert.deepEqual(
      unused.items.map((item) => item.file),
      [other],
    );
    const searched = (await admin<CassetteFolder>(`/cassettes?q=${encodeURIComponent('SAY-HELLO')}`)).body;
    assert.deepEqual(
      searched.items.map((item) => item.file),
      [other],
    );
  });

  test('an answer rendered from a cassette of another client protocol is noted in its entry', async () => {
    const answer = await request(`${gw.url}/v1/embeddings`, 'POST', {
      token: gw.token,
      body: { model: 'text-embed', input: 'across protocols' },
    });
    const entry = await eventually(
      async () => (await admin<JournalPage>('/journal')).body.items.find((item) => item.request_id === answer.headers.get('x-request-id')),
      'the journal entry of the call',
    );
    const detail = (await admin<JournalEntry>(`/journal/${entry.id}`)).body;
    assert.deepEqual(detail.notes, [
      `Replayed from ${replayed} (sequence 1), recorded through the anthropic protocol and rendered through this call's: what that protocol cannot carry is lost (see docs/record-replay.md).`,
    ]);
  });

  test("the run's record names the cassette once, and the CLI reads it after the gateway stopped", async () => {
    await request(`${gw.url}/v1/embeddings`, 'POST', { token: gw.token, body: { model: 'text-embed', input: 'Embed this' } });
    await gw.stop();
    const lines = readFileSync(path.join(dir, REPLAY_RUN_FILE), 'utf8').trim().split('\n');
    assert.match(lines[0]!, /^\{"started_at":"\d{4}-\d\d-\d\dT[\d:.]+\+00:00"\}$/);
    assert.deepEqual(lines.slice(1), [JSON.stringify({ file: replayed })]);
    const listed = await runCliAsync(['cassette', 'list', dir]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${replayed.replaceAll('.', '\\.')}\\t.*\\treplayed$`, 'm'));
    assert.match(listed.stdout, new RegExp(`^${other.replaceAll('.', '\\.')}\\t.*\\tunused$`, 'm'));
    assert.match(listed.stderr, /last replay run .* used 1/);
  });
});

describe('a gateway without a cassette folder', () => {
  test('lists none', async () => {
    const gw = await startGateway();
    try {
      const folder = await request<CassetteFolder>(`${gw.url}/admin/api/cassettes`, 'GET', { token: gw.gateway.adminToken });
      assert.equal(folder.status, 200);
      assert.deepEqual(
        { dir: folder.body.dir, mode: folder.body.mode, run: folder.body.run, total: folder.body.total },
        { dir: null, mode: null, run: null, total: 0 },
      );
    } finally {
      await gw.stop();
    }
  });
});

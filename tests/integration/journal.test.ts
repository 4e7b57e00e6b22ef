// Integration tests of the request journal: what a call records (bodies, stream timing, errors), what it never records (credentials), filters, live events, clearing.
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { WebSocket } from 'ws';
import { ADMIN_WS_PATH, ADMIN_WS_PROTOCOL, ADMIN_WS_TOKEN_PREFIX } from '../../shared/admin-events.ts';
import { JOURNAL_BODY_LIMIT } from '../../shared/journal.ts';
import { JournalRepo } from '../../electron/gateway/storage/journal-repo.ts';
import { journalRowsOf } from '../../electron/gateway/storage/journal-row.ts';
import { openSqliteFile } from '../../electron/gateway/storage/database.ts';
import {
  JOURNAL_FILE,
  JOURNAL_PAGE_SIZE,
  JOURNAL_STEPS,
  JOURNAL_WAL_PAGES,
  journalWalBytes,
  openJournalStore,
  reopenJournalStore,
} from '../../electron/gateway/storage/journal-store.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';
import { journalRecord, keptBody } from '../helpers/journal.ts';

describe('request journal', () => {
  let server: TestGateway;
  let client: OpenAI;
  const admin = (path: string, method = 'GET') => request(`${server.url}/admin/api${path}`, method, { token: server.gateway.adminToken });

  before(async () => {
    server = await startGateway();
    client = new OpenAI({ apiKey: server.token, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  after(() => server.stop());

  test('a chat call is recorded with its model, account, bodies and safe headers, never its token', async () => {
    await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'journal me please' }] });
    const list = await admin('/journal?path=/v1/chat/completions');
    assert.equal(list.status, 200);
    const summary = list.body.items[0];
    assert.equal(summary.method, 'POST');
    assert.equal(summary.model, 'sim-chat');
    assert.equal(summary.account, 'local');
    assert.equal(summary.status, 200);
    assert.equal(summary.stream, false);
    assert.equal(summary.protocol, 'openai');
    const entry = (await admin(`/journal/${summary.id}`)).body;
    assert.equal(entry.token, 'first token', 'the token is named');
    assert.match(entry.request.text, /journal me please/);
    assert.equal(JSON.parse(entry.response.text).object, 'chat.completion');
    assert.equal(entry.requestHeaders['content-type'], 'application/json');
    assert.match(entry.requestHeaders['user-agent'], /OpenAI/);
    assert.equal(entry.requestHeaders['authorization'], undefined);
    assert.equal(JSON.stringify(entry).includes(server.token), false, 'the token appears nowhere in the entry');
    assert.equal(entry.timing, null);
  });

  test('a stream is recorded as written, with its chunk timing', async () => {
    const stream = await client.chat.completions.create({
      model: 'sim-chat',
      stream: true,
      messages: [{ role: 'user', content: 'stream for the journal' }],
    });
    for await (const _chunk of stream) void _chunk;
    const { items } = (await admin('/journal?path=/v1/chat/completions')).body;
    const entry = (await admin(`/journal/${items[0].id}`)).body;
    assert.equal(entry.stream, true);
    assert.match(entry.response.text, /^data: \{/);
    assert.match(entry.response.text, /data: \[DONE\]\n\n$/);
    // An unpaced simulated answer leaves in one write; a paced one write by write (the next test).
    assert.ok(entry.timing.chunks >= 1, `chunks: ${entry.timing.chunks}`);
    assert.equal(entry.timing.chunkOffsetsMs.length, entry.timing.chunks);
    assert.deepEqual(
      [...entry.timing.chunkOffsetsMs].sort((a: number, b: number) => a - b),
      entry.timing.chunkOffsetsMs,
    );
    assert.equal(entry.timing.cut, false);
    assert.ok(entry.timing.firstByteMs <= entry.durationMs);
  });

  test('a streamed answer reads back exactly as the client received it, and the body search finds a word of it', async () => {
    const raw = await client.chat.completions
      .create({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'stream read back whole' }] })
      .asResponse();
    const received = await raw.text();
    assert.ok(received.length > 4096, `${received.length} characters: long enough to be stored packed`);
    const { items } = (await admin('/journal?path=/v1/chat/completions')).body;
    const entry = (await admin(`/journal/${items[0].id}`)).body;
    assert.equal(entry.response.text, received);
    assert.equal(entry.response.bytes, Buffer.byteLength(received));
    const word = /"content":" ?(\w{4,})"/.exec(received)![1]!;
    const found = (await admin(`/journal?path=/v1/chat/completions&q=${encodeURIComponent(word)}`)).body;
    assert.ok(
      found.items.some((item: { id: number }) => item.id === items[0].id),
      `the search for ${word} finds the entry`,
    );
  });

  test('a paced stream read to its end by the SDK is whole, its writes spaced by the pace; a disconnect fault is cut', async () => {
    const stream = await client.chat.completions.create(
      { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'paced for the journal' }] },
      { headers: { 'x-gatehouse-pace': '50' } },
    );
    for await (const _chunk of stream) void _chunk;
    const paced = (await admin('/journal?path=/v1/chat/completions')).body.items[0];
    const entry = (await admin(`/journal/${paced.id}`)).body;
    assert.equal(entry.timing.cut, false, 'the SDK hangs up at [DONE]: the stream must already be over by then');
    assert.equal(entry.status, 200);
    const offsets: number[] = entry.timing.chunkOffsetsMs;
    const span = offsets.at(-1)! - offsets[0]!;
    assert.ok(span >= (offsets.length - 1) * 15, `writes ~20 ms apart at pace 50: ${offsets.join(',')}`);

    const cut = await client.chat.completions
      .create(
        { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'cut me off' }] },
        { headers: { 'x-gatehouse-fault': 'disconnect' } },
      )
      .then(async (broken) => {
        for await (const _chunk of broken) void _chunk;
      })
      .then(
        () => 'ended',
        () => 'failed',
      );
    assert.equal(cut, 'failed', 'the SDK sees the connection drop');
    const dropped = (await admin('/journal?path=/v1/chat/completions')).body.items[0];
    assert.equal((await admin(`/journal/${dropped.id}`)).body.timing.cut, true);
  });

  test('a streamed answer of several writes past the body limit, in multi-byte characters, keeps its first characters as sent and counts every byte', async () => {
    // 2- and 3-byte characters: the answer is written in several writes, far past JOURNAL_BODY_LIMIT bytes.
    const text = 'é€ab'.repeat(30_000);
    const added = await request(`${server.url}/admin/api/fixtures`, 'POST', {
      token: server.gateway.adminToken,
      body: [{ name: 'long-multibyte', match: { user: 'long multi-byte answer' }, response: { text } }],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const raw = await client.chat.completions
      .create({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'long multi-byte answer' }] })
      .asResponse();
    const received = Buffer.from(await raw.arrayBuffer());
    const { items } = (await admin('/journal?path=/v1/chat/completions')).body;
    const entry = (await admin(`/journal/${items[0].id}`)).body;
    assert.equal(entry.fixture, 'long-multibyte');
    assert.ok(entry.timing.chunks > 1, `written in ${entry.timing.chunks} writes`);
    assert.equal(entry.response.bytes, received.length, 'every byte sent is counted');
    assert.equal(entry.response.truncated, true);
    const kept: string = entry.response.text;
    assert.ok(received.toString('utf8').startsWith(kept), 'the first characters, as sent');
    assert.ok(kept.length <= JOURNAL_BODY_LIMIT && Buffer.byteLength(kept) > JOURNAL_BODY_LIMIT, `${kept.length} characters kept`);
  });

  test('a JSON body that fits only without indentation is kept whole, compact; a larger one is cut and says so', async () => {
    const tokens = Array.from({ length: 9000 }, (_, index) => 1000 + (index % 9000));
    await client.embeddings.create({ model: 'sim-embed', input: tokens });
    const fits = (await admin('/journal?path=/v1/embeddings')).body.items[0];
    const kept = (await admin(`/journal/${fits.id}`)).body.request;
    assert.equal(kept.truncated, false);
    assert.deepEqual(JSON.parse(kept.text).input, tokens, 'the whole body, as sent');

    await client.embeddings.create({ model: 'sim-embed', input: Array.from({ length: 20000 }, () => 12345) });
    const big = (await admin('/journal?path=/v1/embeddings')).body.items[0];
    const cut = (await admin(`/journal/${big.id}`)).body.request;
    assert.equal(cut.truncated, true);
    assert.ok(cut.bytes > cut.text.length, `${cut.bytes} bytes sent, ${cut.text.length} kept`);
  });

  test('failed calls are recorded with the message the caller got', async () => {
    await request(`${server.url}/v1/chat/completions`, 'POST', { token: server.token, body: { messages: [] } });
    const errors = (await admin('/journal?outcome=error')).body.items;
    assert.ok(errors.length >= 1);
    assert.ok(errors.every((item: any) => item.status >= 400));
    const failed = errors.find((item: any) => item.path === '/v1/chat/completions');
    assert.equal(failed.status, 400);
    assert.equal(failed.account, 'local');
    assert.match(failed.error, /Missing required parameter/);
    const ok = (await admin('/journal?outcome=ok')).body.items;
    assert.ok(ok.length > 0 && ok.every((item: any) => item.status < 400));
  });

  test("calls naming no token of the gateway (any web page can send them) are counted, never journaled; a token holder's unknown path or refusal is", async () => {
    const created = await request(`${server.url}/admin/api/tokens`, 'POST', {
      token: server.gateway.adminToken,
      body: { account: 'revoked-bot' },
    });
    await request(`${server.url}/admin/api/tokens/${created.body.token.token_id}/revoke`, 'POST', { token: server.gateway.adminToken });
    const before = (await admin('/journal')).body;
    // What a page can send with a no-cors fetch or an <img>: no credential, or a wrong one.
    for (let index = 0; index < 20; index += 1) await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{"model":"x"}' });
    await request(`${server.url}/v1/models`, 'GET', { token: 'sk-wrong' });
    await request(`${server.url}/v1beta/models/sim-chat:generateContent?key=wrong`, 'POST', { body: {} });
    await fetch(`${server.url}/v1/nowhere`, { method: 'POST' });
    await fetch(`${server.url}/v1/files/images/nothing.png`);
    await request(`${server.url}/v1/nowhere`, 'GET', { token: server.token });
    assert.equal((await request(`${server.url}/v1/models`, 'GET', { token: created.body.secret })).status, 403);
    // Each call is recorded (or counted) when its response closes, a moment after the client has its answer.
    const after = await eventually(async () => {
      const now = (await admin('/journal')).body;
      return now.unauthenticated_calls - before.unauthenticated_calls + now.total - before.total >= 26 && now;
    }, 'all 26 calls recorded or counted');
    assert.equal(after.unauthenticated_calls - before.unauthenticated_calls, 24);
    assert.equal(after.total - before.total, 2, "only the token holders' calls are journaled");
    const [refused, unknown] = after.items;
    assert.deepEqual([unknown.path, unknown.status, unknown.account], ['/v1/nowhere', 404, 'local']);
    assert.deepEqual([refused.path, refused.status, refused.account], ['/v1/models', 403, 'revoked-bot']);
    assert.match(refused.error, /revoked/);
  });

  test('a call with a token that was found but refused (revoked, expired, out of quota) is recorded whole: account, model, body', async () => {
    const make = async (body: Record<string, unknown>) =>
      (
        await request(`${server.url}/admin/api/tokens`, 'POST', {
          token: server.gateway.adminToken,
          body: { account: 'refused-bot', ...body },
        })
      ).body;
    const revoked = await make({ name: 'revoked' });
    await request(`${server.url}/admin/api/tokens/${revoked.token.token_id}/revoke`, 'POST', { token: server.gateway.adminToken });
    // The admin API takes only a future expiry; the token is moved into the past through the service (no wait that a
    // busy machine could outlast before the token is even made).
    const expired = await make({ name: 'expired', expires_at: Date.now() + 3_600_000 });
    server.gateway.context.tokens.update(expired.token.token_id, { expiresAt: Date.now() - 1_000 });
    const spent = await make({ name: 'spent', quota: 0 });
    for (const [token, why] of [
      [revoked, /revoked/],
      [expired, /expired/],
      [spent, /quota/],
    ] as const) {
      const answer = await request(`${server.url}/v1/chat/completions`, 'POST', {
        token: token.secret,
        body: { model: 'sim-chat', messages: [{ role: 'user', content: `kept although ${token.token.name}` }] },
      });
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.match(answer.body.error.message, why);
      const summary = await eventually(
        async () =>
          (await admin('/journal?path=/v1/chat/completions&outcome=error')).body.items.find(
            (item: any) => item.error && why.test(item.error),
          ),
        `the ${token.token.name} call is journaled`,
      );
      assert.deepEqual([summary.status, summary.account, summary.model], [403, 'refused-bot', 'sim-chat']);
      const entry = (await admin(`/journal/${summary.id}`)).body;
      assert.match(entry.request.text, new RegExp(`kept although ${token.token.name}`));
      assert.equal(entry.token, token.token.name, 'the token is named');
      assert.equal(JSON.stringify(entry).includes(token.secret), false, 'the token appears nowhere in the entry');
    }
    // A refused token's call whose body does not parse is still answered as refused.
    const broken = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${revoked.secret}`, 'content-type': 'application/json' },
      body: '{"model": "sim-chat", ',
    });
    assert.equal(broken.status, 403);
  });

  test('a Gemini key in the query is not kept; the model comes from the path; binary answers keep only their size', async () => {
    await request(`${server.url}/v1beta/models/sim-chat:generateContent?key=${server.token}`, 'POST', {
      body: { contents: [{ parts: [{ text: 'hi' }] }] },
    });
    const gemini = (await admin('/journal?protocol=gemini')).body.items[0];
    assert.equal(gemini.model, 'sim-chat');
    const entry = (await admin(`/journal/${gemini.id}`)).body;
    assert.deepEqual(entry.query, {});
    assert.equal(JSON.stringify(entry).includes(server.token), false);

    const speech = await fetch(`${server.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-tts', input: 'hello', voice: 'alloy' }),
    });
    const bytes = (await speech.arrayBuffer()).byteLength;
    const audio = (await admin('/journal?path=/v1/audio/speech')).body.items[0];
    const audioEntry = (await admin(`/journal/${audio.id}`)).body;
    assert.equal(audioEntry.response.text, null);
    assert.equal(audioEntry.response.bytes, bytes);
    assert.match(audioEntry.response.contentType, /audio\/mpeg/);
  });

  test('the account filter keeps the calls of one account', async () => {
    const created = await request(`${server.url}/admin/api/tokens`, 'POST', {
      token: server.gateway.adminToken,
      body: { account: 'journal-other' },
    });
    assert.equal(created.status, 200);
    await request(`${server.url}/v1/models`, 'GET', { token: created.body.secret });
    await client.models.list();
    const other = (await admin('/journal?account=journal-other')).body;
    assert.equal(other.total, 1);
    assert.equal(other.items[0].account, 'journal-other');
    const local = (await admin('/journal?account=local')).body.items;
    assert.ok(local.length > 0 && local.every((item: any) => item.account === 'local'));
  });

  test('a portrait business error (HTTP 200, success false) keeps its message', async () => {
    await request(`${server.url}/v1/portrait/groups`, 'POST', { token: server.token, body: { name: '' } });
    const item = (await admin('/journal?protocol=portrait')).body.items[0];
    assert.equal(item.status, 200);
    assert.ok(item.error && item.error.length > 3, `error: ${item.error}`);
  });

  test('the console, admin API and health checks are not journaled; filters are checked', async () => {
    await fetch(`${server.url}/healthz`);
    const paths = (await admin('/journal?page_size=100')).body.items.map((item: any) => item.path);
    assert.ok(
      paths.every((path: string) => /^\/(v1|v1beta|v2)\//.test(path)),
      paths.join(' '),
    );
    assert.equal((await admin('/journal?outcome=maybe')).status, 400);
    assert.equal((await admin('/journal?protocol=smtp')).status, 400);
    assert.equal((await admin('/journal/999999')).status, 404);
    assert.equal((await admin('/journal/abc')).status, 404);
    assert.equal(
      (await request(`${server.url}/admin/api/journal`, 'GET', { token: server.token })).status,
      401,
      'an API token cannot read the journal',
    );
  });

  test('each new entry is pushed over the admin socket', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${ADMIN_WS_PATH}`, [
      ADMIN_WS_PROTOCOL,
      `${ADMIN_WS_TOKEN_PREFIX}${server.gateway.adminToken}`,
    ]);
    const added = new Promise<any>((resolve) => {
      socket.on('message', (data) => {
        const event = JSON.parse(String(data));
        if (event.type === 'journal.added' && event.entry.path === '/v1/embeddings') resolve(event.entry);
      });
    });
    await new Promise((resolve) => socket.once('open', resolve));
    await client.embeddings.create({ model: 'sim-embed', input: 'live' });
    const entry = await added;
    assert.equal(entry.model, 'sim-embed');
    assert.equal(typeof entry.id, 'number');
    socket.close();
  });

  test('clearing empties the journal; ids are never given out again', async () => {
    const newestBefore = (await admin('/journal')).body.items[0].id;
    const cleared = await admin('/journal/clear', 'POST');
    assert.ok(cleared.body.removed > 0);
    assert.equal((await admin('/journal')).body.total, 0);
    await client.models.list();
    const [after] = (await admin('/journal')).body.items;
    assert.ok(after.id > newestBefore, `a new entry after a clear gets a new id (${after.id} > ${newestBefore})`);
    assert.equal((await admin(`/journal/${newestBefore}`)).status, 404, 'an old id names nothing rather than another call');
  });
});

describe('journal off', () => {
  test('records nothing and says so in the status', async () => {
    const server = await startGateway({ journal: false });
    try {
      await request(`${server.url}/v1/models`, 'GET', { token: server.token });
      const token = server.gateway.adminToken;
      assert.equal((await request(`${server.url}/admin/api/journal`, 'GET', { token })).body.total, 0);
      assert.equal((await request(`${server.url}/admin/api/status`, 'GET', { token })).body.journal, false);
    } finally {
      await server.stop();
    }
  });
});

describe('journal storage', () => {
  test('keeps only the newest entries and survives a reopen', () => {
    const dataDir = tempDataDir();
    const record = (path: string) => journalRecord({ at: Date.now(), path });
    let db = openJournalStore(dataDir);
    new JournalRepo(db).insertMany(journalRowsOf(['/v1/a', '/v1/b', '/v1/c', '/v1/d'].map(record)), 3);
    db.close();
    db = openJournalStore(dataDir);
    const repo = new JournalRepo(db);
    assert.deepEqual(
      repo.list({}, 1, 10).items.map((item) => item.path),
      ['/v1/d', '/v1/c', '/v1/b'],
    );
    assert.equal(repo.list({ path: 'C' }, 1, 10).total, 1, 'the path filter ignores case');
    // Batch after batch, and after the journal is cleared (ids go on), it holds the newest `limit` and no more.
    for (const batch of [['/v1/e'], ['/v1/f', '/v1/g', '/v1/h', '/v1/i', '/v1/j']]) repo.insertMany(journalRowsOf(batch.map(record)), 3);
    assert.deepEqual(
      repo.list({}, 1, 10).items.map((item) => item.path),
      ['/v1/j', '/v1/i', '/v1/h'],
    );
    assert.equal(repo.clear(), 3);
    repo.insertMany(journalRowsOf(['/v1/k', '/v1/l'].map(record)), 3);
    repo.insertMany(journalRowsOf(['/v1/m', '/v1/n'].map(record)), 3);
    const kept = repo.list({}, 1, 10).items;
    assert.deepEqual(
      kept.map((item) => item.path),
      ['/v1/n', '/v1/m', '/v1/l'],
    );
    assert.ok(
      kept.every((item) => item.id > 10),
      'ids are not reused after a clear',
    );
    assert.deepEqual(
      repo.list({ protocol: 'openai', model: 'm', account: 'local', outcome: 'ok' }, 1, 2).items.map((item) => item.path),
      ['/v1/n', '/v1/m'],
      'filters page without their indexes',
    );
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a new journal.sqlite has 8 KiB pages; a file made before keeps its 4 KiB pages and its entries', () => {
    const fresh = tempDataDir();
    const older = tempDataDir();
    try {
      const db = openJournalStore(fresh);
      assert.equal(db.pragma('page_size', { simple: true }), JOURNAL_PAGE_SIZE);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      db.close();
      // What the previous version made: the usual open, SQLite's default page size.
      const made = openSqliteFile(older, JOURNAL_FILE, JOURNAL_STEPS);
      new JournalRepo(made).insertMany(journalRowsOf([journalRecord({ path: '/v1/old' })]), 10);
      made.close();
      const reopened = openJournalStore(older);
      assert.equal(reopened.pragma('page_size', { simple: true }), 4096);
      assert.deepEqual(
        new JournalRepo(reopened).list({}, 1, 10).items.map((item) => item.path),
        ['/v1/old'],
      );
      reopened.close();
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(older, { recursive: true, force: true });
    }
  });

  test('the journal checkpoints its WAL past JOURNAL_WAL_PAGES, not at SQLite’s default 1,000 pages, opened or reopened; entries left in the WAL are read by the next connection', () => {
    const dataDir = tempDataDir();
    try {
      const db = openJournalStore(dataDir);
      const reopened = reopenJournalStore(dataDir);
      assert.equal(reopened.pragma('wal_autocheckpoint', { simple: true }), JOURNAL_WAL_PAGES);
      reopened.close();
      // Each entry in a commit of its own, as the thread’s batches come: about 9 pages each, about 1,830 in all.
      const repo = new JournalRepo(db);
      const text = (n: number) => `${n} `.padEnd(48 * 1024, 'abcdefghij');
      for (let n = 0; n < 200; n++) {
        repo.insertMany(journalRowsOf([journalRecord({ path: `/v1/e${n}` }, { response: keptBody(text(n), 'text/plain') })]), 2000);
      }
      // The frames in the WAL: past 1,000 pages SQLite's default would have checkpointed and started it again.
      const { log } = (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!;
      assert.ok(log > 1100 && log < JOURNAL_WAL_PAGES, `WAL frames ${log}`);
      // A second connection, opened while the writer still holds the file and its WAL un-checkpointed, reads every
      // entry from the WAL, bodies whole.
      const next = reopenJournalStore(dataDir);
      const entries = new JournalRepo(next);
      assert.equal(entries.list({}, 1, 10).total, 200);
      assert.equal(entries.get(entries.list({}, 1, 1).items[0]!.id)?.response.text, text(199));
      next.close();
      db.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('after a checkpoint past JOURNAL_WAL_PAGES the journal’s -wal file shrinks back to that size at the next commit, its entries all kept', () => {
    const dataDir = tempDataDir();
    try {
      const db = openJournalStore(dataDir);
      const repo = new JournalRepo(db);
      const wal = `${path.join(dataDir, JOURNAL_FILE)}-wal`;
      const limit = journalWalBytes(JOURNAL_PAGE_SIZE);
      const text = (n: number) => `${n} `.padEnd(48 * 1024, 'abcdefghij');
      // Batches of 25 entries of 48 KiB (about 225 pages a commit) until one crosses the 4,000 pages: its commit
      // checkpoints, and the file keeps the size it reached.
      let n = 0;
      while (statSync(wal).size <= limit) {
        const records = Array.from({ length: 25 }, () =>
          journalRecord({ path: `/v1/e${n}` }, { response: keptBody(text(n++), 'text/plain') }),
        );
        repo.insertMany(journalRowsOf(records), 2000);
      }
      assert.ok(statSync(wal).size > limit);
      // The next commit starts the WAL again from its beginning and cuts the file to the limit.
      repo.insertMany(journalRowsOf([journalRecord({ path: '/v1/last' })]), 2000);
      assert.ok(statSync(wal).size <= limit, `-wal ${statSync(wal).size} bytes, limit ${limit}`);
      const [last, previous] = repo.list({}, 1, 2).items;
      assert.deepEqual([last!.path, previous!.path], ['/v1/last', `/v1/e${n - 1}`]);
      assert.equal(repo.get(previous!.id)?.response.text, text(n - 1));
      assert.equal(repo.list({}, 1, 10).total, Math.min(n + 1, 2000));
      db.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

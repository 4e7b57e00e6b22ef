// Unit tests of the Logs page's store and helpers: filters sent and mirrored for live entries, live on and off, details, clearing, curl replay and stream figures.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JournalEntry, JournalSummary } from '../../../shared/journal.ts';
import { ApiError } from '../../../renderer/src/api/http.ts';
import { journalCurl, replayProblem, streamStats, timelineMarks } from '../../../renderer/src/features/logs/journal-view.ts';
import { createJournalStore, JOURNAL_PAGE_SIZE, matchesJournalFilter, NO_JOURNAL_FILTER } from '../../../renderer/src/stores/journal.ts';
import { curlCommand } from '../../../renderer/src/api/curl.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';

const summary = (id: number, extra: Partial<JournalSummary> = {}): JournalSummary => ({
  id,
  at: 1_700_000_000_000 + id,
  method: 'POST',
  path: '/v1/chat/completions',
  protocol: 'openai',
  model: 'sim-chat',
  account: 'local',
  status: 200,
  durationMs: 5,
  stream: false,
  error: null,
  ...extra,
});

const entry = (extra: Partial<JournalEntry> = {}): JournalEntry => ({
  ...summary(7),
  query: {},
  requestHeaders: {
    'content-type': 'application/json',
    'user-agent': 'OpenAI/JS 7',
    'x-stainless-os': 'Linux',
    'x-gatehouse-fault': '429',
  },
  request: { contentType: 'application/json', bytes: 30, text: '{\n  "model": "it\'s"\n}', truncated: false },
  responseHeaders: { 'content-type': 'application/json' },
  response: { contentType: 'application/json', bytes: 2, text: '{}', truncated: false },
  timing: null,
  ...extra,
});

/** A fake journal that answers pages from a list, newest first, the way the gateway filters. */
function journalAdmin(rows: JournalSummary[]) {
  return fakeAdmin({
    listJournal: ({ query = {} }) => {
      const filter = { ...NO_JOURNAL_FILTER, ...query };
      const items = rows.filter((row) => matchesJournalFilter(filter, row)).sort((a, b) => b.id - a.id);
      const p = query.p ?? 1;
      const size = query.page_size ?? 20;
      return { page: p, page_size: size, total: items.length, items: items.slice((p - 1) * size, p * size), unauthenticated_calls: 0 };
    },
    getJournalEntry: ({ params }) => {
      if (params.entryId !== '7') throw new ApiError(`Journal entry ${params.entryId} does not exist`, 404, 'entryId');
      return entry();
    },
    clearJournal: () => ({ removed: rows.splice(0).length }),
  });
}

describe('journal store', () => {
  test('filters are sent as query parameters (empty ones left out) and page 1 is loaded again', async () => {
    const admin = journalAdmin([
      summary(1),
      summary(2, { status: 500, error: 'boom' }),
      summary(3, { protocol: 'gemini', model: 'gemini-2.5' }),
    ]);
    const store = createJournalStore(admin.call);
    await store.getState().load(1);
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [3, 2, 1],
    );
    await store.getState().setFilter({ outcome: 'error' });
    assert.deepEqual(admin.calls.at(-1)?.input.query, { p: 1, page_size: JOURNAL_PAGE_SIZE, outcome: 'error' });
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [2],
    );
    await store.getState().setFilter({ outcome: '', model: ' gemini-2.5 ', path: '' });
    assert.deepEqual(
      admin.calls.at(-1)?.input.query,
      { p: 1, page_size: JOURNAL_PAGE_SIZE, model: 'gemini-2.5' },
      'text filters are trimmed',
    );
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [3],
    );
  });

  test('the local filter rules match the gateway’s: outcome by status, exact model and account, path part in any case', () => {
    const row = summary(1, { path: '/v1/Chat/Completions', status: 404 });
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, outcome: 'error' }, row), true);
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, outcome: 'ok' }, row), false);
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, path: 'chat/comp' }, row), true);
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, model: 'sim' }, row), false, 'the model must match exactly');
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, protocol: 'anthropic' }, row), false);
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, account: 'local' }, row), true);
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, account: 'loc' }, row), false, 'the account must match exactly');
    assert.equal(
      matchesJournalFilter({ ...NO_JOURNAL_FILTER, account: 'local' }, { ...row, account: null }),
      false,
      'refused calls belong to no account',
    );
  });

  test('live: a matching new call joins the top of page 1 once, the page keeps its size, others are ignored', async () => {
    const rows = Array.from({ length: JOURNAL_PAGE_SIZE }, (_, index) => summary(index + 1));
    const store = createJournalStore(journalAdmin(rows).call);
    await store.getState().setFilter({ protocol: 'openai' });
    store.getState().applyAdded(summary(100));
    store.getState().applyAdded(summary(100));
    store.getState().applyAdded(summary(101, { protocol: 'anthropic', path: '/v1/messages' }));
    const page = store.getState().page!;
    assert.equal(page.items[0]?.id, 100);
    assert.equal(page.items.length, JOURNAL_PAGE_SIZE);
    assert.equal(page.total, JOURNAL_PAGE_SIZE + 1, 'counted once, the other protocol not at all');
    assert.equal(store.getState().unseen, 0);
  });

  test('with live off, or on a later page, new calls are only counted; turning live on shows them', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => summary(index + 1));
    const store = createJournalStore(journalAdmin(rows).call);
    await store.getState().load(1);
    await store.getState().setLive(false);
    rows.push(summary(31));
    store.getState().applyAdded(summary(31));
    assert.equal(store.getState().page?.items[0]?.id, 30, 'the table holds still');
    assert.equal(store.getState().unseen, 1);
    await store.getState().setLive(true);
    assert.equal(store.getState().page?.items[0]?.id, 31);
    assert.equal(store.getState().unseen, 0);

    await store.getState().load(2);
    rows.push(summary(32));
    store.getState().applyAdded(summary(32));
    assert.equal(store.getState().unseen, 1);
    assert.equal(store.getState().page?.page, 2);
  });

  test('text filters are kept as the gateway applies them (trimmed, at most 200 characters), so live rows still match', async () => {
    const admin = journalAdmin([summary(1)]);
    const store = createJournalStore(admin.call);
    await store.getState().setFilter({ path: ' chat ', model: ` ${'m'.repeat(300)}` });
    assert.equal(store.getState().filter.path, 'chat');
    assert.equal(store.getState().filter.model.length, 200);
    await store.getState().setFilter({ model: '' });
    assert.deepEqual(admin.calls.at(-1)?.input.query, { p: 1, page_size: JOURNAL_PAGE_SIZE, path: 'chat' });
    store.getState().applyAdded(summary(2));
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [2, 1],
      'a /v1/chat/completions call matches "chat"',
    );
  });

  test('a call recorded while a list answer is on its way is shown once, whether or not the answer holds it', async () => {
    const rows = [summary(1), summary(2)];
    const releases: Array<() => void> = [];
    const inner = journalAdmin(rows);
    const admin = fakeAdmin({
      listJournal: (input) => new Promise((resolve) => releases.push(() => resolve(inner.call('listJournal', input)))),
    });
    const store = createJournalStore(admin.call);
    const loading = store.getState().load(1);
    // Recorded after the gateway answered the list, announced before the answer arrived.
    store.getState().applyAdded(summary(3));
    releases[0]!();
    rows.push(summary(3));
    await loading;
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [3, 2, 1],
    );
    assert.equal(store.getState().page?.total, 3);

    // Recorded before the gateway answered: the answer holds it, and the event changes nothing.
    rows.push(summary(4));
    const again = store.getState().load(1);
    store.getState().applyAdded(summary(4));
    releases[1]!();
    await again;
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [4, 3, 2, 1],
    );
    assert.equal(store.getState().page?.total, 4);
  });

  test('the count of calls not shown survives paging and a repeated event; page 1 clears it', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => summary(index + 1));
    const store = createJournalStore(journalAdmin(rows).call);
    await store.getState().load(1);
    await store.getState().load(2);
    store.getState().applyAdded(summary(61));
    store.getState().applyAdded(summary(61));
    assert.equal(store.getState().unseen, 1, 'the same call is counted once');
    await store.getState().load(3);
    assert.equal(store.getState().unseen, 1, 'still not seen on page 3');
    rows.push(summary(61));
    await store.getState().load(1);
    assert.equal(store.getState().unseen, 0);
    assert.equal(store.getState().page?.items[0]?.id, 61);
  });

  test('an older list answer never replaces a newer one', async () => {
    const releases: Array<() => void> = [];
    const admin = fakeAdmin({
      listJournal: ({ query = {} }) =>
        new Promise((resolve) =>
          releases.push(() =>
            resolve({
              page: 1,
              page_size: JOURNAL_PAGE_SIZE,
              total: 1,
              items: [summary(query.model === 'b' ? 2 : 1)],
              unauthenticated_calls: 0,
            }),
          ),
        ),
    });
    const store = createJournalStore(admin.call);
    const first = store.getState().setFilter({ model: 'a' });
    const second = store.getState().setFilter({ model: 'b' });
    releases[1]!();
    await second;
    releases[0]!();
    await first;
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [2],
    );
  });

  test('details open by id, a missing entry says so, and close forgets them', async () => {
    const store = createJournalStore(journalAdmin([summary(7)]).call);
    await store.getState().open(7);
    assert.equal(store.getState().detail?.id, 7);
    await store.getState().open(8);
    assert.equal(store.getState().detail, null, 'the old details do not stand in for the new id');
    assert.match(store.getState().detailError!, /does not exist/);
    store.getState().close();
    assert.equal(store.getState().detailId, null);
    assert.equal(store.getState().detailError, null);
  });

  test('clearing empties the table and closes the details; a failure says why and keeps them', async () => {
    const store = createJournalStore(journalAdmin([summary(7), summary(8)]).call);
    await store.getState().load(1);
    await store.getState().open(7);
    assert.equal(await store.getState().clear(), true);
    assert.equal(store.getState().page?.total, 0);
    assert.equal(store.getState().detailId, null);

    const failing = createJournalStore(
      fakeAdmin({ clearJournal: () => Promise.reject(new ApiError('The admin token is not valid', 401)) }).call,
    );
    assert.equal(await failing.getState().clear(), false);
    assert.equal(failing.getState().clearError, 'The admin token is not valid');
    assert.equal(failing.getState().clearing, false);
  });
});

describe('Logs helpers', () => {
  test('curl replay: method, query, the headers that change behaviour, the body, and the token from $TOKEN', () => {
    const curl = journalCurl(entry({ query: { alt: 'sse' }, stream: true }), 'http://127.0.0.1:8790');
    assert.equal(
      curl,
      [
        `curl -N 'http://127.0.0.1:8790/v1/chat/completions?alt=sse'`,
        `  -H "Authorization: Bearer $TOKEN"`,
        `  -H 'content-type: application/json'`,
        `  -H 'x-gatehouse-fault: 429'`,
        `  -d '{\n  "model": "it'\\''s"\n}'`,
      ].join(' \\\n'),
    );
    const get = journalCurl(
      entry({
        method: 'GET',
        path: '/v1/models',
        request: { contentType: null, bytes: 0, text: null, truncated: false },
        requestHeaders: {},
      }),
      'http://h',
    );
    assert.equal(get, `curl 'http://h/v1/models' \\\n  -H "Authorization: Bearer $TOKEN"`);
    const del = journalCurl(
      entry({ method: 'DELETE', path: '/v1/responses/r1', request: { contentType: null, bytes: 0, text: null, truncated: false } }),
      'http://h',
    );
    assert.match(del, /^curl -X DELETE 'http:\/\/h\/v1\/responses\/r1'/);
  });

  test('curl asks for the head only with -I, and turns globbing off for brackets', () => {
    assert.equal(curlCommand({ url: 'http://h/v1/models', method: 'HEAD', headers: {} }), `curl -I 'http://h/v1/models'`);
    assert.equal(curlCommand({ url: 'http://h/v1/x?a[]=1', headers: {} }), `curl -g 'http://h/v1/x?a[]=1'`);
    assert.equal(
      curlCommand({ url: 'http://h/v1/x', method: 'put', headers: {}, body: '{}' }),
      `curl -X PUT 'http://h/v1/x' \\\n  -d '{}'`,
    );
  });

  test('calls whose body was not kept whole cannot be replayed, and say why', () => {
    assert.equal(replayProblem(entry()), null);
    assert.equal(
      replayProblem(entry({ request: { contentType: 'multipart/form-data; boundary=x', bytes: 900, text: null, truncated: false } })),
      'binary',
    );
    assert.equal(
      replayProblem(entry({ request: { contentType: 'application/json', bytes: 90_000, text: '{', truncated: true } })),
      'truncated',
    );
  });

  test('stream figures: first byte, longest and mean gap, tail, and writes past the kept offsets', () => {
    const timing = { firstByteMs: 4, chunks: 6, chunkOffsetsMs: [4, 10, 11, 40], cut: false };
    assert.deepEqual(streamStats(timing, 50), { firstByteMs: 4, chunks: 6, longestGapMs: 29, meanGapMs: 12, tailMs: 10, untracked: 2 });
    assert.deepEqual(timelineMarks(timing, 50), [0.08, 0.2, 0.22, 0.8]);
    assert.deepEqual(timelineMarks({ ...timing, chunkOffsetsMs: [0, 0] }, 0), [0, 0], 'a zero-length call does not divide by zero');
    assert.equal(streamStats({ firstByteMs: 0, chunks: 0, chunkOffsetsMs: [], cut: true }, 7).tailMs, 7);
  });
});

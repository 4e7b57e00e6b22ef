// The journal's writer over a real journal thread: a batch is committed in journal.sqlite by the thread, announced once committed, read back in the order posted, never lost at stop; a batch the thread cannot write is lost, not the process, and a record that cannot be made a row is lost alone.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import type { JournalRecord, JournalSummary } from '../../../shared/journal.ts';
import { JournalRecorder } from '../../../electron/gateway/services/journal.ts';
import { DATABASE_FILE } from '../../../electron/gateway/storage/database.ts';
import { JOURNAL_FILE } from '../../../electron/gateway/storage/journal-store.ts';
import { JournalThread } from '../../../electron/gateway/storage/journal-thread.ts';
import { eventually } from '../../helpers/eventually.ts';
import { tempDirs } from '../../helpers/gateway.ts';
import { journalRecord } from '../../helpers/journal.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

const record = (path: string): JournalRecord => journalRecord({ at: 1_700_000_000_000, path });

/** A record with every field a summary has, as the capture makes them (`call` changing some). */
const full = (index: number, call: Partial<Omit<JournalRecord, 'detail'>> = {}): JournalRecord =>
  journalRecord({
    at: 1_700_000_000_000 + index,
    path: `/v1/call-${index}`,
    token: 'default',
    usage: null,
    firstOutputMs: null,
    test_id: null,
    request_id: `req_${index}`,
    source: 'simulate',
    fixture: null,
    cassette: null,
    ...call,
  });

/** The summaries `records` are announced as, with the ids `ids` the journal lists them by. */
const summariesOf = (records: readonly JournalRecord[], ids: readonly number[]) =>
  records.map((record, index) => {
    const { detail: _detail, relay: _relay, ...summary } = record;
    return { id: ids[index]!, ...summary };
  });

/** The paths journal.sqlite holds, read on a connection of its own (what a process started after this one would find). */
function stored(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, JOURNAL_FILE), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT path FROM journal ORDER BY id').all() as { path: string }[]).map((row) => row.path);
  } finally {
    db.close();
  }
}

function recorderIn(dataDir: string, idleMs?: number) {
  const store = new JournalThread(dataDir, idleMs === undefined ? {} : { idleMs });
  const announced: JournalSummary[] = [];
  const errors: unknown[] = [];
  const recorder = new JournalRecorder({ store, onAdded: (entry) => announced.push(entry), onError: (error) => errors.push(error) });
  return { store, recorder, announced, errors };
}

test('nothing recorded, nothing started: no thread, no journal.sqlite, and reads answer an empty journal', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder } = recorderIn(dataDir);
  assert.deepEqual(await store.list({}, 1, 10), { total: 0, items: [] });
  assert.equal(await store.get(1), undefined);
  assert.equal(await store.clear(), 0);
  await recorder.stop();
  await store.stop();
  assert.equal(store.thread, undefined);
  assert.equal(existsSync(path.join(dataDir, JOURNAL_FILE)), false);
});

test('a batch is committed in journal.sqlite by the thread (the product database is never touched), then announced with its ids', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder, announced, errors } = recorderIn(dataDir);
  try {
    recorder.add(record('/v1/chat/completions'));
    recorder.add(record('/v1/embeddings'));
    assert.equal(store.thread, undefined, 'the thread starts with the first batch, not the first record');
    await recorder.flush();
    assert.deepEqual(stored(dataDir), ['/v1/chat/completions', '/v1/embeddings'], 'committed when announced');
    assert.deepEqual(
      announced.map((entry) => [entry.path, typeof entry.id]),
      [
        ['/v1/chat/completions', 'number'],
        ['/v1/embeddings', 'number'],
      ],
    );
    assert.equal(existsSync(path.join(dataDir, DATABASE_FILE)), false);
    assert.deepEqual(errors, []);
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

test('each entry is announced as recorded with the id the journal lists it by; while nobody listens none is made, and entries are committed all the same', async () => {
  const dataDir = dirs.fresh();
  const store = new JournalThread(dataDir);
  const announced: JournalSummary[] = [];
  let listening = true;
  const recorder = new JournalRecorder({
    store,
    onAdded: (entry) => announced.push(entry),
    announcing: () => listening,
    onError: () => {},
  });
  try {
    const call = journalRecord({ at: 1_700_000_000_000, path: '/v1/chat/completions', test_id: 'announce', request_id: 'req_1' });
    recorder.add(call);
    await recorder.flush();
    const listed = await store.list({ test_id: 'announce' }, 1, 10);
    const { detail: _detail, ...summary } = call;
    assert.deepEqual(announced, [{ id: listed.items[0]!.id, ...summary }]);
    listening = false;
    recorder.add(record('/v1/embeddings'));
    await recorder.flush();
    assert.equal(announced.length, 1, 'nothing announced while nobody listens');
    assert.deepEqual(stored(dataDir), ['/v1/chat/completions', '/v1/embeddings']);
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

test('a read posted right after a flush sees the batch (the thread answers in order), and a clear by test id removes only its entries', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder } = recorderIn(dataDir);
  try {
    recorder.add({ ...record('/v1/a'), test_id: 'one' });
    recorder.add({ ...record('/v1/b'), test_id: 'two' });
    void recorder.flush();
    const page = await store.list({}, 1, 10);
    assert.deepEqual(
      page.items.map((item) => item.path),
      ['/v1/b', '/v1/a'],
    );
    assert.equal((await store.get(page.items[1]!.id))?.test_id, 'one');
    recorder.add({ ...record('/v1/c'), test_id: 'one' });
    void recorder.flush();
    assert.equal(await store.clear('one'), 2);
    assert.deepEqual(stored(dataDir), ['/v1/b']);
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

test('stop commits every record added before it, still waiting in its batch, before the thread closes the file', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder, announced } = recorderIn(dataDir);
  recorder.add(record('/v1/first'));
  await recorder.flush();
  for (const name of ['x', 'y', 'z']) recorder.add(record(`/v1/${name}`));
  const recorded = recorder.stop();
  await store.stop();
  await recorded;
  assert.equal(existsSync(path.join(dataDir, `${JOURNAL_FILE}-wal`)), false, 'the thread closed the file: no WAL left');
  recorder.add(record('/v1/after-stop'));
  assert.deepEqual(stored(dataDir), ['/v1/first', '/v1/x', '/v1/y', '/v1/z']);
  assert.equal(announced.length, 4);
});

test('a batch that cannot be written is reported and announces nothing; the next one is written', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder, announced, errors } = recorderIn(dataDir);
  try {
    recorder.add({ ...record('/v1/broken'), protocol: undefined as unknown as 'openai' });
    await recorder.flush();
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /NOT NULL/);
    assert.deepEqual(announced, []);
    recorder.add(record('/v1/models'));
    await recorder.flush();
    assert.deepEqual(stored(dataDir), ['/v1/models']);
    assert.equal(announced.length, 1);
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

test('an idle thread ends (closing the file, its memory given back); the next batch or read starts another that finds every entry', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder, announced, errors } = recorderIn(dataDir, 50);
  try {
    recorder.add(record('/v1/one'));
    await recorder.flush();
    const first = store.thread;
    assert.ok(first);
    await eventually(() => store.thread === undefined, 'the idle thread retired');
    await eventually(() => !existsSync(path.join(dataDir, `${JOURNAL_FILE}-wal`)), 'its file closed');
    assert.deepEqual(
      (await store.list({}, 1, 10)).items.map((item) => item.path),
      ['/v1/one'],
    );
    assert.notEqual(store.thread, first, 'a new thread answered');
    recorder.add(record('/v1/two'));
    await recorder.flush();
    assert.deepEqual(stored(dataDir), ['/v1/one', '/v1/two']);
    assert.equal(announced.length, 2);
    assert.deepEqual(errors, [], 'a retired thread is no failure');
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

test('a record with every summary field (as the capture makes them) is announced from its batch row exactly as from the record itself; one whose row cannot give it (a cost of a fraction of a micro-unit, a field absent) is announced from the record, each in its place', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder, announced, errors } = recorderIn(dataDir);
  const records = [
    full(0, {}),
    full(1, { usage: { inputTokens: 12, outputTokens: 120, cost: 0.000153 }, stream: true, firstOutputMs: 4 }),
    full(2, { usage: { inputTokens: 1, outputTokens: 2, cost: 0.0000015 } }),
    full(3, { status: 429, error: 'Rate limited "now"', model: null, account: null, token: null, source: null }),
    full(4, { source: 'fixture', fixture: 'greeting', test_id: 't-1' }),
    full(5, { source: 'replay', cassette: 'chat-0001.json', relay: { channel: null, upstreamModel: null, attempts: [] } }),
    journalRecord({ at: 6, path: '/v1/call-6' }),
    full(7, { usage: { inputTokens: 3, outputTokens: 4, cost: 12.5 } }),
  ];
  try {
    for (const record of records) recorder.add(record);
    await recorder.flush();
    assert.deepEqual(errors, []);
    const ids = (await store.list({}, 1, 20)).items.map((item) => item.id).reverse();
    const expected = summariesOf(records, ids);
    assert.deepEqual(announced, expected);
    // The same text too: the console is sent each summary as JSON.
    assert.deepEqual(
      announced.map((summary) => JSON.stringify(summary)),
      expected.map((summary) => JSON.stringify(summary)),
    );
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

test('a batch of several parts is announced entry by entry in its places, and a record that cannot be made a row is refused alone: the others are stored and announced', async () => {
  const dataDir = dirs.fresh();
  const { store, recorder, announced, errors } = recorderIn(dataDir);
  // A relay note JSON cannot write (as a BigInt): its row cannot be made.
  const unwritable = journalRecord({ path: '/v1/unwritable', relay: { channel: null, upstreamModel: null, attempts: [1n] as never } });
  // Every 97th with a cost its row cannot give back (kept for its summary).
  const records = Array.from({ length: 450 }, (_, index) =>
    full(index, { usage: { inputTokens: index, outputTokens: 1, cost: index % 97 === 0 ? 0.0000015 : 0.000153 } }),
  );
  try {
    for (const [index, record] of records.entries()) {
      recorder.add(record);
      if (index === 250) assert.throws(() => recorder.add(unwritable), TypeError);
    }
    await recorder.flush();
    assert.deepEqual(errors, []);
    const paths = stored(dataDir);
    assert.deepEqual(
      paths,
      records.map((record) => record.path),
      'every other record stored, in order (450 rows: three parts)',
    );
    const ids = (await store.list({}, 1, 500)).items.map((item) => item.id).reverse();
    assert.deepEqual(announced, summariesOf(records, ids));
  } finally {
    await recorder.stop();
    await store.stop();
  }
});

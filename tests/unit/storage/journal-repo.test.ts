// The journal's rows on a real journal.sqlite: an entry reads back as it was recorded whatever its values (texts that need escaping, any set of null fields, a relay), and its stored detail is the JSON of its detail.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { JOURNAL_BODY_LIMIT, type JournalEntry, type JournalRecord } from '../../../shared/journal.ts';
import { JOURNAL_INSERTS_KEPT, JournalRepo } from '../../../electron/gateway/storage/journal-repo.ts';
import { journalRowsOf } from '../../../electron/gateway/storage/journal-row.ts';
import { openJournalStore } from '../../../electron/gateway/storage/journal-store.ts';
import { tempDirs } from '../../helpers/gateway.ts';
import { journalRecord, keptBody } from '../../helpers/journal.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** Text JSON escapes: quotes, a backslash, a control character, non-Latin and astral characters. */
const AWKWARD = 'a "quoted" \\ back\tslash, ✓ ünï 😀 \u2028';

/** A relayed stream with every field set, its headers, query, notes and relay tries holding awkward text. */
const relayed: JournalRecord = {
  ...journalRecord(
    {
      at: 1_700_000_000_123,
      path: '/v1/chat/completions',
      model: 'gpt-x',
      status: 200,
      durationMs: 42,
      stream: true,
      token: 'ci token',
      usage: { inputTokens: 12, outputTokens: 40, cost: 0.0042 },
      firstOutputMs: 7,
      test_id: 'row-test',
      request_id: 'req_1',
      source: 'relay',
      fixture: 'a fixture',
      cassette: 'cassette.json',
    },
    {
      query: { 'a b': AWKWARD, empty: '' },
      requestHeaders: { 'content-type': 'application/json', 'user-agent': AWKWARD },
      request: keptBody('{"model":"gpt-x"}'),
      responseHeaders: { 'content-type': 'text/event-stream', 'x-note': AWKWARD },
      response: { contentType: 'text/event-stream', bytes: 9_000, text: `data: ${AWKWARD}\n\n`, truncated: true },
      timing: { firstByteMs: 3, chunks: 3, chunkOffsetsMs: [3, 5, 9], cut: false },
      notes: [AWKWARD, 'second'],
    },
  ),
  relay: {
    channel: 'second',
    upstreamModel: 'upstream-x',
    attempts: [
      { channel: 'first', status: null, error: AWKWARD, ms: 5 },
      { channel: 'second', status: 200, error: null, ms: 11 },
    ],
  },
};

/** The fields of a record a row may leave null, and a value for each when it does not. */
const NULLABLE: Record<string, unknown> = {
  model: 'm',
  account: 'local',
  error: 'HTTP 500',
  token: 'default',
  usage: { inputTokens: 1, outputTokens: 2, cost: 0.5 },
  firstOutputMs: 3,
  test_id: 'null-sets',
  request_id: 'req_n',
  source: 'simulate',
  fixture: 'f',
  cassette: 'c.json',
};

/** The record with the fields whose bits `nulls` sets left null, the others set, its bodies' texts and relay too. */
function withNulls(nulls: number): JournalRecord {
  const names = Object.keys(NULLABLE);
  const call = Object.fromEntries(names.map((name, index) => [name, (nulls & (1 << index)) === 0 ? NULLABLE[name] : null]));
  const bit = names.length;
  const record = journalRecord(call as Partial<JournalRecord>, {
    request: keptBody((nulls & (1 << bit)) === 0 ? '{"n":1}' : null),
    response: keptBody((nulls & (1 << (bit + 1))) === 0 ? '{"ok":true}' : null),
  });
  if ((nulls & (1 << (bit + 2))) === 0)
    record.relay = { channel: 'c', upstreamModel: 'u', attempts: [{ channel: 'c', status: 200, error: null, ms: 1 }] };
  return record;
}

/** The entry the journal lists for a record stored under `id`: its fields, null where it had none, its detail and relay. */
function entryOf(record: JournalRecord, id: number): JournalEntry {
  const { detail, relay, ...call } = record;
  return {
    id,
    ...call,
    token: call.token ?? null,
    usage: call.usage ?? null,
    firstOutputMs: call.firstOutputMs ?? null,
    test_id: call.test_id ?? null,
    request_id: call.request_id ?? null,
    source: call.source ?? null,
    fixture: call.fixture ?? null,
    cassette: call.cassette ?? null,
    ...detail,
    ...(relay && { relay }),
  } as JournalEntry;
}

test('an entry reads back as recorded, its detail stored as the JSON of its detail (headers, query, notes and relay with text that needs escaping)', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const plain = journalRecord({ model: null, account: null, token: null, error: 'HTTP 401', status: 401 });
    const [relayedId, plainId] = repo.insertMany(journalRowsOf([relayed, plain]), 10);
    assert.deepEqual(repo.get(relayedId!), entryOf(relayed, relayedId!));
    assert.deepEqual(repo.get(plainId!), entryOf(plain, plainId!));
    const stored = db.prepare('SELECT detail_json, relay_json FROM journal WHERE id = ?').get(relayedId) as {
      detail_json: string;
      relay_json: string;
    };
    const { detail } = relayed;
    assert.equal(
      stored.detail_json,
      JSON.stringify({ ...detail, request: { ...detail.request, text: null }, response: { ...detail.response, text: null } }),
      'the same text JSON.stringify makes of the detail, its bodies in their own columns',
    );
    assert.equal(stored.relay_json, JSON.stringify(relayed.relay));
    // A call's usual detail: no query (it crosses to the thread as null), no timing, no notes.
    const plainStored = db.prepare('SELECT detail_json, relay_json FROM journal WHERE id = ?').get(plainId) as {
      detail_json: string;
      relay_json: string | null;
    };
    assert.deepEqual(plain.detail.query, {});
    assert.equal(
      plainStored.detail_json,
      JSON.stringify({
        ...plain.detail,
        request: { ...plain.detail.request, text: null },
        response: { ...plain.detail.response, text: null },
      }),
    );
    assert.equal(plainStored.relay_json, null);
  } finally {
    db.close();
  }
});

test(`rows with more sets of null fields than the ${JOURNAL_INSERTS_KEPT} INSERTs kept are all stored whole, in order`, () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    // Every set of the first seven fields left null, with the last fields' sets turning over: 128 sets in all.
    const records = Array.from({ length: 2 * JOURNAL_INSERTS_KEPT }, (_, index) => withNulls(index | ((index % 5) << 8)));
    const ids = repo.insertMany(journalRowsOf(records), 1_000);
    assert.equal(new Set(ids).size, records.length);
    assert.deepEqual(
      ids,
      ids.toSorted((a, b) => a - b),
    );
    records.forEach((record, index) => assert.deepEqual(repo.get(ids[index]!), entryOf(record, ids[index]!), `record ${index}`));
    // Batches after the kept INSERTs are all made insert the same way.
    const again = repo.insertMany(journalRowsOf([withNulls(0), withNulls(0x7ff), relayed]), 1_000);
    assert.deepEqual(repo.get(again[2]!), entryOf(relayed, again[2]!));
    assert.deepEqual(repo.get(again[1]!), entryOf(withNulls(0x7ff), again[1]!));
  } finally {
    db.close();
  }
});

/** A streamed answer as a simulated chat stream writes it: events that repeat all but their content (emoji whose halves match, a line that starts as a packed one does). */
const STREAM = ['In', ' practice', ',', ' say 😀', ' say 😃', '\u00011,2,x', ' é', ' done.']
  .map(
    (content) =>
      `data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1,"model":"sim-chat","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}],"usage":null}\n\n`,
  )
  .join('')
  .repeat(6)
  .concat('data: [DONE]\n\n');

/** The total length of the texts stored in an entry's row, whichever columns hold them. */
function storedChars(db: ReturnType<typeof openJournalStore>, id: number): number {
  const row = db.prepare('SELECT * FROM journal WHERE id = ?').get(id) as Record<string, unknown>;
  return Object.values(row).reduce<number>((sum, value) => sum + (typeof value === 'string' ? value.length : 0), 0);
}

test('a streamed answer is stored in a fraction of its length, and reads back and is found by search exactly as it was written', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const response = { contentType: 'text/event-stream', bytes: Buffer.byteLength(STREAM), text: STREAM, truncated: false };
    const streamed = journalRecord({ stream: true, path: '/v1/chat/completions' }, { response });
    const [id] = repo.insertMany(journalRowsOf([streamed]), 10);
    assert.deepEqual(repo.get(id!), entryOf(streamed, id!));
    assert.ok(storedChars(db, id!) < STREAM.length / 4, `${storedChars(db, id!)} characters stored for an answer of ${STREAM.length}`);
    assert.deepEqual(
      repo.list({ q: 'say 😃' }, 1, 10).items.map((item) => item.id),
      [id],
      'the body search reads the answer as written',
    );
    assert.equal(repo.list({ q: 'not in the stream' }, 1, 10).total, 0);
    // Past the INSERTs kept (every column bound), a packed answer reads back as well.
    const records = Array.from({ length: JOURNAL_INSERTS_KEPT + 8 }, (_, index) => ({
      ...withNulls(index),
      detail: { ...withNulls(index).detail, response },
    }));
    const ids = repo.insertMany(journalRowsOf(records), 1_000);
    records.forEach((record, index) => assert.deepEqual(repo.get(ids[index]!), entryOf(record, ids[index]!), `record ${index}`));
  } finally {
    db.close();
  }
});

test('a body search pages its matches newest first, its total counting every match, whatever the page', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const response = (text: string) => ({ contentType: 'application/json', bytes: Buffer.byteLength(text), text, truncated: false });
    const records = Array.from({ length: 7 }, (_, index) =>
      journalRecord({ path: '/v1/chat/completions' }, { response: response(index % 3 === 1 ? `plain ${index}` : `a wombat ${index}`) }),
    );
    const ids = repo.insertMany(journalRowsOf(records), 100);
    const matching = ids.filter((_, index) => index % 3 !== 1).reverse();
    const pages = [1, 2, 3, 4].map((page) => repo.list({ q: 'WOMBAT' }, page, 2));
    for (const listed of pages) assert.equal(listed.total, matching.length);
    assert.deepEqual(
      pages.map((listed) => listed.items.map((item) => item.id)),
      [matching.slice(0, 2), matching.slice(2, 4), matching.slice(4, 6), []],
    );
  } finally {
    db.close();
  }
});

test('an answer handed over as its UTF-8 bytes (a long one, kept off the heap) is stored and read back as its text, cut at the journal limit', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const long = (text: string) => ({
      contentType: 'text/event-stream',
      bytes: Buffer.byteLength(text),
      text: null,
      truncated: text.length > JOURNAL_BODY_LIMIT,
      utf8: Buffer.from(text),
    });
    const fits = 'data: {"content":"ünï ✓ 😀"}\n\n'.repeat(200);
    const over = 'data: {"content":"wombat ✓"}\n\n'.repeat(Math.ceil((JOURNAL_BODY_LIMIT * 1.2) / 29));
    const records = [fits, over].map((text) => journalRecord({ stream: true }, { response: long(text) }));
    const [first, second] = repo.insertMany(journalRowsOf(records), 10);
    assert.equal(repo.get(first!)!.response.text, fits);
    assert.equal(repo.get(second!)!.response.text, over.slice(0, JOURNAL_BODY_LIMIT));
    assert.equal(repo.get(second!)!.response.truncated, true);
    assert.deepEqual(
      repo.list({ q: 'WOMBAT' }, 1, 10).items.map((item) => item.id),
      [second],
    );
  } finally {
    db.close();
  }
});

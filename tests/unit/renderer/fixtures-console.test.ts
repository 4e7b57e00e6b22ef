// Unit tests of the console's fixtures and Logs-source helpers: one-line summaries of a fixture, its text for editing, the fixtures
// store's bodies (test id, JSON checked first), what answered a journal entry, and the Logs test id filter.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FixtureListing } from '../../../shared/fixtures.ts';
import type { JournalSummary } from '../../../shared/journal.ts';
import { editableText, endpointSummary, matchSummary, responseSummary } from '../../../renderer/src/features/fixtures/fixture-summary.ts';
import { answerSourceOf } from '../../../renderer/src/features/logs/answer-source.ts';
import { createFixturesStore } from '../../../renderer/src/stores/fixtures.ts';
import { createJournalStore, JOURNAL_PAGE_SIZE, matchesJournalFilter, NO_JOURNAL_FILTER } from '../../../renderer/src/stores/journal.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';
import { heldAnswers, turnsUntil } from '../../helpers/held-answer.ts';

const listing = (fixture: unknown, extra: Partial<FixtureListing> = {}): FixtureListing => ({
  id: 3,
  label: 'runtime#0',
  source: 'runtime#0',
  origin: 'runtime',
  testId: null,
  matched: 0,
  fixture,
  ...extra,
});

describe('fixture summaries', () => {
  test('endpoint: the match names it, else the families the responses fit, else any', () => {
    assert.equal(endpointSummary({ match: { endpoint: ['chat', 'embeddings'] }, response: { text: 'a' } }), 'chat, embeddings');
    assert.equal(endpointSummary({ response: { embedding: [0.1] } }), 'embeddings');
    assert.equal(endpointSummary({ sequence: [{ error: { status: 429 } }, { text: 'ok' }] }), 'chat');
    assert.equal(endpointSummary({ response: { error: { status: 500 } } }), 'any');
    assert.equal(endpointSummary({ response: { review: { status: 'Failed' } } }), 'portrait');
    assert.equal(endpointSummary({ match: { endpoint: '3d' }, response: { task3d: { status: 'SUCCESS' } } }), '3d');
  });

  test('match: each field with its value, a regular expression as /…/flags, nothing for a fixture matching every call', () => {
    assert.equal(
      matchSummary({
        match: { endpoint: 'chat', user: { regex: 'weather in \\w+', flags: 'i' }, turn: 1, tools: ['get_weather'], test_id: 't' },
      }),
      'user /weather in \\w+/i · turn 1 · tools "get_weather"',
    );
    assert.equal(matchSummary({ response: { text: 'a' } }), '');
    assert.match(matchSummary({ match: { user: 'x'.repeat(200) } }), /^user "x{60}…"$/);
  });

  test('response: text, tool calls, errors, other fields by name, a sequence in order, and times', () => {
    assert.equal(responseSummary({ response: { text: 'Hi', tool_calls: [{ name: 'a' }, { name: 'b' }] } }), 'tool calls a, b + text "Hi"');
    assert.equal(
      responseSummary({
        sequence: [{ error: { status: 429, message: 'Slow' } }, { error: { status: 429 } }, { text: 'ok' }, { text: 'x' }],
        times: 2,
      }),
      'sequence of 4: error 429 "Slow" → error 429 → text "ok" → … (1 more) · times 2',
    );
    assert.equal(responseSummary({ response: { embedding: [1], stream: { chunk_size: 2 } } }), 'embedding');
    assert.equal(responseSummary({ response: { review: { status: 'Failed', reason: 'blurry', delay_ms: 10 } } }), 'review Failed "blurry"');
    assert.equal(responseSummary({ response: { task3d: { status: 'SUCCESS', progress: [10, 100] } } }), 'task3d SUCCESS');
  });

  test('the text to edit is the fixture as written, with the test id it was added under', () => {
    const written = { name: 'a', response: { text: 'x' } };
    assert.deepEqual(JSON.parse(editableText(listing(written, { testId: 'checkout' }))), { ...written, test_id: 'checkout' });
    assert.deepEqual(JSON.parse(editableText(listing({ ...written, match: { test_id: 'own' } }, { testId: 'own' }))), {
      ...written,
      match: { test_id: 'own' },
    });
    assert.deepEqual(JSON.parse(editableText(listing(written))), written);
  });
});

describe('fixtures store', () => {
  test('adds a fixture under a test id, refuses text that is not JSON without a call, and edits by id', async () => {
    const admin = fakeAdmin({
      listFixtures: () => ({ fixtures: [] }),
      addFixtures: () => ({ added: [] }),
      updateFixture: ({ params }) => listing({}, { id: Number(params.fixtureId) }),
    });
    const store = createFixturesStore(admin.call);
    assert.equal((await store.getState().add('{"response": {"text": "a"}}', ' checkout ')).ok, true);
    assert.deepEqual(admin.calls[0]?.input.body, { fixtures: [{ response: { text: 'a' } }], test_id: 'checkout' });
    await store.getState().add('[{"response": {"text": "b"}}]', '');
    assert.deepEqual(admin.calls.at(-2)?.input.body, [{ response: { text: 'b' } }], 'without a test id the text is sent as it is');
    const calls = admin.calls.length;
    const bad = await store.getState().add('{"response": ', '');
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.message, /^Not valid JSON/);
    assert.equal(admin.calls.length, calls, 'nothing sent');
    assert.equal((await store.getState().update(3, '{"response": {"text": "c"}}')).ok, true);
    assert.deepEqual(admin.calls.at(-2)?.input, { params: { fixtureId: '3' }, body: { response: { text: 'c' } } });
  });

  test("a list read as the page opened, landing after an addition's own reload, does not hide the added fixture", async () => {
    const { answers, next } = heldAnswers<{ fixtures: FixtureListing[] }>();
    const admin = fakeAdmin({
      listFixtures: next,
      addFixtures: () => ({ added: [] }),
    });
    const store = createFixturesStore(admin.call);
    const opened = store.getState().load();
    const added = store.getState().add('{"response": {"text": "a"}}', '');
    assert.ok(await turnsUntil(() => answers.length === 2), 'the addition reloaded the list');
    answers[1]!.resolve({ fixtures: [listing({ response: { text: 'a' } })] });
    await added;
    answers[0]!.resolve({ fixtures: [] });
    await opened;
    assert.equal(store.getState().fixtures?.length, 1);
  });
});

const summary = (id: number, extra: Record<string, unknown> = {}): JournalSummary => ({
  id,
  at: 1_700_000_000_000 + id,
  method: 'POST',
  path: '/v1/chat/completions',
  protocol: 'openai',
  model: 'gpt-4o',
  account: 'local',
  status: 200,
  durationMs: 5,
  stream: false,
  error: null,
  ...extra,
});

describe('Logs: what answered, and the test id filter', () => {
  test('the source comes from the entry’s source, else its fixture and relay; a listed call without them tells nothing', () => {
    assert.deepEqual(answerSourceOf({ ...summary(1), source: 'fixture', fixture: 'greeting' }, false), {
      kind: 'fixture',
      name: 'greeting',
    });
    assert.deepEqual(answerSourceOf({ ...summary(1), source: 'simulate' }, false), { kind: 'simulate' });
    assert.deepEqual(answerSourceOf({ ...summary(1), source: 'replay', cassette: 'gpt-4o-hi.0123456789abcdef.json' }, false), {
      kind: 'replay',
      cassette: 'gpt-4o-hi.0123456789abcdef.json',
    });
    assert.deepEqual(answerSourceOf({ ...summary(1), fixture: 'suite.json#2' }, true), { kind: 'fixture', name: 'suite.json#2' });
    assert.deepEqual(answerSourceOf({ ...summary(1), relay: { channel: 'openai', upstreamModel: 'gpt-4o', attempts: [] } }, true), {
      kind: 'relay',
      channel: 'openai',
    });
    assert.deepEqual(answerSourceOf(summary(1), true), { kind: 'simulate' });
    assert.equal(answerSourceOf(summary(1), false), undefined);
    assert.equal(answerSourceOf({ ...summary(1), source: null, fixture: null }, true), undefined, 'a call refused before any answer');
    assert.deepEqual(
      answerSourceOf({ ...summary(1), source: null, fixture: 'old' }, true),
      { kind: 'fixture', name: 'old' },
      'an entry from before',
    );
  });

  test('the test id filter is sent as test_id and admits only that test’s live calls', async () => {
    const admin = fakeAdmin({
      listJournal: ({ query = {} }) => ({ page: 1, page_size: query.page_size ?? 20, total: 0, items: [], unauthenticated_calls: 0 }),
    });
    const store = createJournalStore(admin.call);
    await store.getState().setFilter({ testId: ' checkout ' });
    assert.deepEqual(admin.calls.at(-1)?.input.query, { p: 1, page_size: JOURNAL_PAGE_SIZE, test_id: 'checkout' });
    store.getState().applyAdded(summary(5, { test_id: 'other' }));
    store.getState().applyAdded(summary(6, { test_id: 'checkout' }));
    assert.deepEqual(
      store.getState().page?.items.map((item) => item.id),
      [6],
    );
    assert.equal(matchesJournalFilter({ ...NO_JOURNAL_FILTER, testId: 'checkout' }, summary(7)), false, 'a call without a test id');
  });
});

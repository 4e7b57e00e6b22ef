// What a test does through the admin API (fixtures, journal, reset), for every test id or scoped to one.
import type { FixtureListing } from '../../shared/fixtures.ts';
import type { JournalEntry, JournalPage, JournalSummary } from '../../shared/journal.ts';
import { JOURNAL_LIMIT } from '../../shared/journal.ts';
import type { ResetResult } from '../../shared/testing-api.ts';
import { MAX_TEST_ID_CHARS, TEST_ID_HEADER } from '../../shared/test-ids.ts';
import type { AdminCall } from './admin-client.ts';
import type { FixtureInput } from './fixture-types.ts';

/**
 * A test id that can travel in a header: printable ASCII (fetch refuses the rest), no space at either end (it would be
 * trimmed), at most the characters the gateway counts.
 */
const HEADER_SAFE_ID = new RegExp(`^[\\x21-\\x7e]([\\x20-\\x7e]{0,${MAX_TEST_ID_CHARS - 2}}[\\x21-\\x7e])?$`);

/** Journal entries the admin API lists per page (its most). */
const JOURNAL_PAGE_SIZE = 100;

/** A recorded call with its bodies read: JSON bodies parsed, other text as it is, binary and multipart bodies null. */
export interface JournalCall extends JournalEntry {
  /** The request body as the gateway received it (parsed when JSON). */
  requestBody: unknown;
  /** The answer as sent (parsed when JSON; a stream's text as it went out). */
  responseBody: unknown;
}

/** Which recorded calls `journal.list` answers. */
export interface JournalFilter {
  /** Only calls that carried this `x-gatehouse-test-id`. */
  testId?: string;
  /** Only the call answered with this `x-request-id`. */
  requestId?: string;
  /** Part of the path (`/v1/chat/completions`). */
  path?: string;
  /** Exact model name. */
  model?: string;
}

/** What `reset` cleared, as the gateway reports it. */
export type ResetReport = ResetResult;

/** Fixtures added at runtime: `add` then `clear` (fixture files given at start stay). */
export interface FixturesApi {
  /** Adds fixtures (seen only by calls with `testId` when given) and answers them as listed; throws naming each problem. */
  add(fixtures: FixtureInput, options?: { testId?: string }): Promise<FixtureListing[]>;
  /** The fixtures in matching order (runtime first) with how often each matched; with `testId`: those that test sees. */
  list(options?: { testId?: string }): Promise<FixtureListing[]>;
  /** Removes the runtime fixtures (all, or those of `testId`); answers how many. */
  clear(options?: { testId?: string }): Promise<number>;
}

/** The request journal: what the code under test sent and what it got. */
export interface JournalApi {
  /** The recorded calls the filter matches, oldest first (summaries: `get` or `last` for the bodies). */
  list(filter?: JournalFilter): Promise<JournalSummary[]>;
  /** The newest recorded call (of `testId` when given) with its bodies; undefined when there is none. */
  last(filter?: { testId?: string }): Promise<JournalCall | undefined>;
  /** One recorded call with its bodies. */
  get(id: number): Promise<JournalCall>;
}

/** Everything scoped to one test id: pass `headers` to the SDK's `defaultHeaders`. */
export interface TestScope {
  readonly testId: string;
  /** `{ 'x-gatehouse-test-id': testId }`. */
  readonly headers: { readonly [TEST_ID_HEADER]: string };
  readonly fixtures: {
    add(fixtures: FixtureInput): Promise<FixtureListing[]>;
    list(): Promise<FixtureListing[]>;
    clear(): Promise<number>;
  };
  readonly journal: {
    list(filter?: Omit<JournalFilter, 'testId'>): Promise<JournalSummary[]>;
    last(): Promise<JournalCall | undefined>;
  };
  /** Clears this test id's journal entries, runtime fixtures, sequence and fault counters (stored data is not tagged by test id). */
  reset(): Promise<ResetReport>;
}

/** The fixtures API over the admin routes. */
export function fixturesApi(admin: AdminCall): FixturesApi {
  return {
    async add(fixtures, options = {}) {
      const body = options.testId === undefined ? fixtures : { fixtures: listOf(fixtures), test_id: options.testId };
      return (await admin<{ added: FixtureListing[] }>('POST', '/fixtures', { body })).added;
    },
    async list(options = {}) {
      return (await admin<{ fixtures: FixtureListing[] }>('GET', '/fixtures', { query: { test_id: options.testId } })).fixtures;
    },
    async clear(options = {}) {
      return (await admin<{ removed: number }>('DELETE', '/fixtures', { query: { test_id: options.testId } })).removed;
    },
  };
}

/** The journal API over the admin routes. */
export function journalApi(admin: AdminCall): JournalApi {
  const get = async (id: number) => readBodies(await admin<JournalEntry>('GET', `/journal/${id}`));
  const page = (filter: JournalFilter, p: number, pageSize: number) =>
    admin<JournalPage>('GET', '/journal', {
      query: { test_id: filter.testId, request_id: filter.requestId, path: filter.path, model: filter.model, p, page_size: pageSize },
    });
  return {
    async list(filter = {}) {
      // Newest first from the API, page by page up to what the journal keeps; handed back in the order of the calls.
      const items: JournalSummary[] = [];
      for (let p = 1; p <= Math.ceil(JOURNAL_LIMIT / JOURNAL_PAGE_SIZE); p++) {
        const answer = await page(filter, p, JOURNAL_PAGE_SIZE);
        items.push(...answer.items);
        if (answer.items.length < JOURNAL_PAGE_SIZE || items.length >= answer.total) break;
      }
      return items.reverse();
    },
    async last(filter = {}) {
      const newest = (await page(filter, 1, 1)).items[0];
      return newest === undefined ? undefined : get(newest.id);
    },
    get,
  };
}

/** Resets the gateway's test state (all, or one test id's) through `POST /admin/api/reset`. */
export async function resetVia(admin: AdminCall, options: { testId?: string; data?: boolean }): Promise<ResetReport> {
  const body = { ...(options.testId !== undefined && { test_id: options.testId }), ...(options.data && { data: true }) };
  return (await admin<{ reset: ResetReport }>('POST', '/reset', { body })).reset;
}

/** The scope of one test id over the shared APIs. */
export function testScope(testId: string, admin: AdminCall, fixtures: FixturesApi, journal: JournalApi): TestScope {
  if (!HEADER_SAFE_ID.test(testId))
    throw new TypeError(
      `forTest: a test id is 1 to ${MAX_TEST_ID_CHARS} printable ASCII characters, no space at either end (it travels in a header); got ${JSON.stringify(testId)}`,
    );
  return {
    testId,
    headers: { [TEST_ID_HEADER]: testId },
    fixtures: {
      add: (input) => fixtures.add(input, { testId }),
      list: () => fixtures.list({ testId }),
      clear: () => fixtures.clear({ testId }),
    },
    journal: {
      list: (filter = {}) => journal.list({ ...filter, testId }),
      last: () => journal.last({ testId }),
    },
    reset: () => resetVia(admin, { testId }),
  };
}

/** One fixture, a list, or a file's `{ fixtures }`, as a list. */
function listOf(input: FixtureInput): readonly unknown[] {
  if (Array.isArray(input)) return input;
  if (typeof input === 'object' && input !== null && 'fixtures' in input && Array.isArray(input.fixtures)) return input.fixtures;
  return [input];
}

/** The entry with its JSON bodies parsed. */
function readBodies(entry: JournalEntry): JournalCall {
  return { ...entry, requestBody: bodyOf(entry.request), responseBody: bodyOf(entry.response) };
}

function bodyOf(body: JournalEntry['request']): unknown {
  if (body.text === null) return null;
  if (body.truncated || !/json/i.test(body.contentType ?? '')) return body.text;
  try {
    return JSON.parse(body.text);
  } catch {
    return body.text;
  }
}

// The testing API's admin routes: `POST /admin/api/reset` (journal, runtime fixtures, counters, and with `data` the stored data) and the clock (`GET /admin/api/clock`, `POST /admin/api/clock/advance`).
import type { ClockState, ResetResult } from '../../../shared/testing-api.ts';
import type { FixtureAdmin } from '../../../shared/fixtures.ts';
import { MAX_TEST_ID_CHARS } from '../../../shared/test-ids.ts';
import { invalid } from '../errors.ts';
import type { Db } from '../storage/database.ts';
import type { JournalThread } from '../storage/journal-thread.ts';
import { clearAccountData } from '../storage/test-data-repo.ts';
import { MAX_CLOCK_OFFSET_MS, rfc3339, type Clock } from '../time.ts';
import { FILES_KIND as API_FILES_KIND } from './api-files.ts';
import { removeGeneratedFiles } from './generated-files.ts';
import type { JournalRecorder } from './journal.ts';
import { FILES_KIND as TASK_FILES_KIND } from './tasks3d.ts';

/** What the testing routes use of the gateway context. */
export interface TestingContext {
  readonly db: Db;
  readonly dataDir: string;
  readonly clock: Clock & { readonly offsetMs: number; advance(ms: number): void };
  readonly journal: Pick<JournalRecorder, 'flush'>;
  readonly journalStore: Pick<JournalThread, 'clear'>;
  readonly fixtures: FixtureAdmin;
  readonly faults: { reset(testId?: string): number };
}

/** The clock as the routes answer it. */
export function clockState(clock: TestingContext['clock']): ClockState {
  return { offset_ms: clock.offsetMs, now: rfc3339(clock.now()) };
}

/** Moves the clock forward by the body's `ms`: a positive whole number, the total offset at most MAX_CLOCK_OFFSET_MS. */
export function advanceClock(context: TestingContext, body: unknown): ClockState {
  const ms = (body as { ms?: unknown } | null | undefined)?.ms;
  const room = MAX_CLOCK_OFFSET_MS - context.clock.offsetMs;
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms <= 0 || ms > room)
    throw invalid(`ms must be a whole number of milliseconds from 1 to ${room} (the clock moves at most 10 years ahead in all)`, 'ms');
  context.clock.advance(ms);
  return clockState(context.clock);
}

/**
 * Clears what a test leaves behind: journal entries, runtime fixtures with their counters, counted faults (all, or one
 * test id's), and with `data: true` the stored data of every account (not with a test id: stored data is not tagged by
 * test, so a test id's reset cannot tell its rows from another test's, and clearing all would break tests running beside it).
 */
export async function resetGateway(context: TestingContext, body: unknown): Promise<{ reset: ResetResult }> {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body)))
    throw invalid('The body must be a JSON object: {}, {"test_id": "…"} and/or {"data": true}');
  const { test_id: rawTestId, data } = (body ?? {}) as { test_id?: unknown; data?: unknown };
  if (rawTestId !== undefined && (typeof rawTestId !== 'string' || rawTestId === ''))
    throw invalid('test_id must be a non-empty string', 'test_id');
  if (data !== undefined && typeof data !== 'boolean') throw invalid('data must be true or false', 'data');
  const testId = rawTestId?.slice(0, MAX_TEST_ID_CHARS);
  if (data && testId !== undefined)
    throw invalid(
      'data: true empties the stored data of every account, which is not tagged by test id: reset without test_id to clear it',
      'data',
    );
  // Entries still in their batch are posted first (the journal thread answers in order), so a call just answered is cleared too.
  void context.journal.flush();
  // The journal (its own file, cleared by its thread) first: a failure there leaves the stored data as it was.
  const journal = await context.journalStore.clear(testId);
  const cleared = data ? context.db.transaction(() => clearAccountData(context.db)).immediate() : undefined;
  const fixtures = context.fixtures.remove(testId);
  context.fixtures.reset(testId);
  const reset: ResetResult = { test_id: testId ?? null, journal, fixtures, fault_counters: context.faults.reset(testId) };
  if (cleared) {
    reset.data = cleared;
    // The files of the rows just removed: nothing names them any more.
    removeGeneratedFiles(context.dataDir, API_FILES_KIND);
    removeGeneratedFiles(context.dataDir, TASK_FILES_KIND);
  }
  return { reset };
}

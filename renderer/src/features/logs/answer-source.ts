// Who answered a recorded call — a fixture (by name), a relay channel, the simulator — and the test and request ids the journal keeps of it.
import type { JournalEntry, JournalSummary } from '../../../../shared/journal.ts';

/** The journal's facts of a call's answer and its caller's ids, as the admin API lists and details them (absent in older entries). */
export interface JournalCallIds {
  /** Where the answer came from; null: nothing answered (a call refused first). */
  source?: 'simulate' | 'relay' | 'fixture' | 'replay' | null;
  /** The fixture that answered (its name, else `file#index`). */
  fixture?: string | null;
  /** The call's `x-gatehouse-test-id`; null: none. */
  test_id?: string | null;
  /** The call's `x-request-id` as answered. */
  request_id?: string | null;
}

/** A listed call with those facts. */
export type ListedCall = JournalSummary & JournalCallIds;

/** What answered a call. */
export type AnswerSource =
  { kind: 'fixture'; name: string } | { kind: 'relay'; channel: string | null } | { kind: 'simulate' } | { kind: 'replay' };

/**
 * The answer's source: the journal's `source` when it names one (null: nothing answered, undefined is returned), else what the
 * entry's `fixture` and `relay` say. A listed call with neither a `source` nor a `fixture` (a journal that does not list them)
 * tells nothing: undefined, unless `whole` (an entry's detail, which always carries its fixture and relay).
 */
export function answerSourceOf(entry: ListedCall & Partial<Pick<JournalEntry, 'relay'>>, whole: boolean): AnswerSource | undefined {
  const channel = entry.relay?.channel ?? null;
  // Widened: a journal that does not name replays yet types its source without it.
  switch (entry.source as JournalCallIds['source']) {
    case 'fixture':
      return { kind: 'fixture', name: entry.fixture ?? '?' };
    case 'relay':
      return { kind: 'relay', channel };
    case 'simulate':
      return { kind: 'simulate' };
    case 'replay':
      return { kind: 'replay' };
    case null:
      return undefined;
  }
  if (typeof entry.fixture === 'string') return { kind: 'fixture', name: entry.fixture };
  if (entry.relay) return { kind: 'relay', channel };
  return whole ? { kind: 'simulate' } : undefined;
}

// Who answered a recorded call: a fixture (by name), a cassette (by file), a relay channel (by name when the detail says), or the simulator.
import type { JournalEntry, JournalSummary } from '../../../../shared/journal.ts';

/** What answered a call. */
export type AnswerSource =
  | { kind: 'fixture'; name: string }
  | { kind: 'replay'; cassette: string }
  | { kind: 'relay'; channel: string | null }
  | { kind: 'simulate' };

/**
 * The answer's source: the journal's `source`; else (null: a call refused before anything answered, or an entry recorded before
 * the journal kept it) what its `fixture` and `relay` say, or nothing. A journal that lists no `source` at all (undefined) is
 * older still: its listed calls tell nothing, and an entry's detail (`whole`), which carries its fixture and relay, was simulated
 * when neither says otherwise.
 */
export function answerSourceOf(entry: JournalSummary & Partial<Pick<JournalEntry, 'relay'>>, whole: boolean): AnswerSource | undefined {
  const channel = entry.relay?.channel ?? null;
  switch (entry.source) {
    case 'fixture':
      return { kind: 'fixture', name: entry.fixture ?? '?' };
    case 'replay':
      return { kind: 'replay', cassette: entry.cassette ?? '?' };
    case 'relay':
      return { kind: 'relay', channel };
    case 'simulate':
      return { kind: 'simulate' };
  }
  if (typeof entry.fixture === 'string') return { kind: 'fixture', name: entry.fixture };
  if (entry.relay) return { kind: 'relay', channel };
  return whole && entry.source === undefined ? { kind: 'simulate' } : undefined;
}

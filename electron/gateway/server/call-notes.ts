// The notes of one API call (request.callNotes): what the services tell of it (charges, first output, notes, a fixture or replay decision) for its answer's source header and its journal entry.
import { performance } from 'node:perf_hooks';
import type { CallNotes } from '../principal.ts';

/** Most notes one journal entry keeps (a call is charged a few times at most). */
const MAX_CALL_NOTES = 8;

/** The notes of one call: its charges added up, when its first output was produced, and what the owner should know of it. */
export class NotesOfCall implements CallNotes {
  private readonly startedAt: number;
  usage: { inputTokens: number; outputTokens: number; amountMicros: number } | null = null;
  firstOutputMs: number | null = null;
  texts: string[] = [];
  fixtureLabel: string | null = null;
  refusedBy: 'fixture' | 'replay' | null = null;
  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }
  charged(charge: { inputTokens: number; outputTokens: number; amountMicros: number }): void {
    const sum = this.usage ?? { inputTokens: 0, outputTokens: 0, amountMicros: 0 };
    this.usage = {
      inputTokens: sum.inputTokens + charge.inputTokens,
      outputTokens: sum.outputTokens + charge.outputTokens,
      amountMicros: sum.amountMicros + charge.amountMicros,
    };
  }
  firstOutput(): void {
    this.firstOutputMs ??= Math.round(performance.now() - this.startedAt);
  }
  note(text: string): void {
    if (this.texts.length < MAX_CALL_NOTES) this.texts.push(text);
  }
  fixture(label: string): void {
    this.fixtureLabel = label;
  }
  refused(by: 'fixture' | 'replay'): void {
    this.refusedBy = by;
  }
  /** Who decided the answer before any provider ran: a fixture (answering or refusing), replay refusing; null otherwise. */
  get decidedBy(): 'fixture' | 'replay' | null {
    return this.fixtureLabel !== null ? 'fixture' : this.refusedBy;
  }
}

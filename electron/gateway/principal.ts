// The caller behind a request: known to every layer (services bill it, providers receive it in their call context), with where its journal notes go.

/** The caller behind a request, once its token is accepted. */
export interface Principal {
  accountId: number;
  accountName: string;
  tokenId: string;
  /** The token's name, or its hint when unnamed, as the journal shows it (set when a request's token is accepted). */
  tokenLabel?: string;
  /** The models the token may call; absent or null: any model. */
  models?: readonly string[] | null;
  /** The token's spending limit in micro-units; absent or null: none (its calls reserve nothing). */
  quotaMicros?: number | null;
  /** Where this request's charges and first output are noted for its journal entry; absent when nothing listens. */
  notes?: CallNotes;
}

/** Whether the caller's token has a spending limit (`quotaMicros` set, 0 included). */
export function hasQuota(principal: Principal): principal is Principal & { quotaMicros: number } {
  return principal.quotaMicros !== undefined && principal.quotaMicros !== null;
}

/** What the journal learns of a call from the services that serve it. */
export interface CallNotes {
  /** A charge was recorded for the call (a call may be charged more than once: the amounts add up). */
  charged(charge: { inputTokens: number; outputTokens: number; amountMicros: number }): void;
  /** The first output (text or a tool call) was passed on to the caller. */
  firstOutput(): void;
  /** Something the owner should know of the call (an upstream's usage out of bounds, charged by estimate instead). */
  note(text: string): void;
  /** The fixture that answered the call (its name, else `file#index`). */
  fixture?(label: string): void;
  /** Fixtures (a miss in strict mode) or replay (a miss under `--replay-miss error`, a damaged cassette) refused the call. */
  refused?(by: 'fixture' | 'replay'): void;
}

// A decision made once per call and kept for the services that ask again within it (fixtures' and replay's choices).
import type { CallContext } from '../types.ts';

/**
 * One decision kept on a call's context (`CallContext.decided`), the newest first. `owner` is the context it was made
 * for: a context copied from another (`{ ...call }`) carries its list but decides afresh, as a context of its own.
 */
export interface CallDecision {
  readonly owner: CallContext;
  readonly by: object;
  readonly value: unknown;
  readonly next: CallDecision | undefined;
}

/** Remembers what `decide` answered for each call (undefined included) while the call's context lives: on the context itself, no table per call. */
export class OncePerCall<T> {
  /** The decision for `call`: the kept one, else `decide()`'s, kept. */
  get(call: CallContext, decide: () => T | undefined): T | undefined {
    for (let known = call.decided; known !== undefined; known = known.next) {
      if (known.by === this && known.owner === call) return known.value as T | undefined;
    }
    const decision = decide();
    call.decided = { owner: call, by: this, value: decision, next: call.decided };
    return decision;
  }
}

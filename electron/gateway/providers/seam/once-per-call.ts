// A decision made once per call and kept for the services that ask again within it (fixtures' and replay's choices).
import type { CallContext } from '../types.ts';

/** Remembers what `decide` answered for each call (undefined included) while the call's context lives. */
export class OncePerCall<T> {
  private readonly decided = new WeakMap<CallContext, T | null>();

  /** The decision for `call`: the kept one, else `decide()`'s, kept. */
  get(call: CallContext, decide: () => T | undefined): T | undefined {
    const known = this.decided.get(call);
    if (known !== undefined) return known ?? undefined;
    const decision = decide();
    this.decided.set(call, decision ?? null);
    return decision;
  }
}

// Holds, in memory, what the calls in flight may still cost each token with a quota, so the quota holds under concurrency: a call reserves its upper estimate before it starts and settles to its real charge.
import { GatewayError } from '../errors.ts';
import { hasQuota, type Principal } from '../principal.ts';

/** A call's hold on its token's quota: released once, whatever the call's end (answered, failed, cut, refused). */
export interface Reservation {
  /** The micro-units held (0 for a token without a quota). */
  readonly micros: number;
  /** Gives the hold back; a second call does nothing. */
  release(): void;
  /** Runs `work` and releases the hold when it settles, fulfilled or not; what it charged is counted by then. */
  during<T>(work: () => Promise<T>): Promise<T>;
}

/** The reservation of a token without a quota: nothing held, nothing to give back. */
export const NOTHING_HELD: Reservation = {
  micros: 0,
  release: () => undefined,
  during: (work) => work(),
};

/**
 * Per token: the micro-units reserved by calls under way and charged but not yet written (a group commit writes at
 * the end of the event-loop turn). One process serves the calls, so checking and taking happen in one synchronous step;
 * a crash loses only these holds, never an acknowledged charge. A token without a quota costs nothing here.
 */
export class QuotaLedger {
  /** What each token with calls under way holds; an entry leaves when it holds nothing. */
  private readonly held = new Map<string, number>();
  /** What a token has spent, as committed (the tokens table). */
  private readonly spentOf: (tokenId: string) => number;
  constructor(spentOf: (tokenId: string) => number) {
    this.spentOf = spentOf;
  }

  /**
   * Holds `micros` of the caller's quota for one call, or throws the quota refusal when what it spent, what calls under
   * way hold and `micros` together pass its quota. A token without a quota holds nothing.
   */
  reserve(principal: Principal, micros: number): Reservation {
    if (!hasQuota(principal)) return NOTHING_HELD;
    const { tokenId, quotaMicros: quota } = principal;
    const amount = Math.max(0, Math.ceil(micros));
    if (this.spentOf(tokenId) + this.heldBy(tokenId) + amount > quota) {
      // 403 in the caller's protocol, as the token check refuses a token whose quota is spent.
      throw new GatewayError('forbidden', "This call could cost more than what is left of this API token's quota");
    }
    this.add(tokenId, amount);
    let released = false;
    const reservation: Reservation = {
      micros: amount,
      release: () => {
        if (released) return;
        released = true;
        this.add(tokenId, -amount);
      },
      during: async (work) => {
        try {
          return await work();
        } finally {
          reservation.release();
        }
      },
    };
    return reservation;
  }

  /**
   * Counts a charge of a token with a quota until it is written: call with the amount when it is made, and with its
   * negative once it is in the tokens table (or its write failed).
   */
  pending(principal: Principal, micros: number): void {
    if (!hasQuota(principal) || micros === 0) return;
    this.add(principal.tokenId, micros);
  }

  /** What calls under way hold of `tokenId`'s quota, in micro-units. */
  heldBy(tokenId: string): number {
    return this.held.get(tokenId) ?? 0;
  }

  private add(tokenId: string, micros: number): void {
    const total = this.heldBy(tokenId) + micros;
    if (total <= 0) this.held.delete(tokenId);
    else this.held.set(tokenId, total);
  }
}

// What a relayed realtime session holds of its token's quota: one hold per response, from the client's `response.create` or the upstream's own start of one until its `response.done`, settled by the response's id.
import type { Reservation } from '../services/quota-ledger.ts';
import type { ResponseRefusal } from '../providers/types.ts';

/** Most responses (and client creates waiting for theirs) whose holds are kept at once; past it the oldest is let go (an upstream that starts responses and never ends them). */
export const RELAYED_HOLDS_LIMIT = 256;

/** A hold made for a response, or the refusal of a caller who may not pay for it. */
export type HoldOrRefusal = Reservation | ResponseRefusal;

/** A client's `response.create` held, and the event id the upstream names if it refuses the create. */
interface Admitted {
  eventId: string | null;
  held: Reservation;
}

/**
 * The holds of one relayed session. A client's `response.create` is held when admitted, then bound to the next
 * response the upstream starts (or let go when the upstream refuses the create by its event id); a response the
 * upstream starts with no admitted hold waiting (its voice detection answering a turn) is held from then, or refused.
 * Each `response.done` settles the hold of its own response (a response refused settles none); one whose response was
 * never announced by its id settles the oldest admitted hold, as the session's order gives it, but only while the
 * upstream announces none at all (a replay): once it does, such an end lets go of nothing a client is waiting on.
 */
export class RelayedHolds {
  private readonly hold: (eventId: string | null, response: Record<string, unknown> | undefined) => HoldOrRefusal;
  private readonly admitted: Admitted[] = [];
  /** Each response announced, in order: its hold, or null when it was refused. */
  private readonly byResponse = new Map<string, Reservation | null>();
  /** Whether the upstream announced any response by its id (a replay announces none). */
  private announcing = false;

  /** `hold`: what a response may cost held (a client's, with its event id and `response` object), or the refusal. */
  constructor(hold: (eventId: string | null, response: Record<string, unknown> | undefined) => HoldOrRefusal) {
    this.hold = hold;
  }

  /** A client's `response.create`: null when held (it goes upstream), else the error event sent back instead. */
  admit(eventId: string | null, response: Record<string, unknown> | undefined): string | null {
    const held = this.hold(eventId, response);
    if (!isHold(held)) return held.event;
    if (this.admitted.length >= RELAYED_HOLDS_LIMIT) this.admitted.shift()!.held.release();
    this.admitted.push({ eventId, held });
    return null;
  }

  /** The upstream refused the client event `eventId` (an `error` event naming it): a `response.create`'s hold is let go. */
  rejected(eventId: string): void {
    const index = this.admitted.findIndex((admitted) => admitted.eventId === eventId);
    if (index >= 0) this.admitted.splice(index, 1)[0]!.held.release();
  }

  /**
   * The upstream started `responseId` (its `response` object, whose `max_output_tokens` bounds the hold of one it
   * started on its own): null when it may go on (held), else the refusal (it is to be cancelled, or the session ended).
   */
  started(responseId: string, response: Record<string, unknown> | undefined): ResponseRefusal | null {
    this.announcing = true;
    const held = this.admitted.shift()?.held ?? this.hold(null, response);
    this.byResponse.get(responseId)?.release();
    this.byResponse.delete(responseId);
    if (this.byResponse.size >= RELAYED_HOLDS_LIMIT) {
      const [oldest, kept] = this.byResponse.entries().next().value!;
      kept?.release();
      this.byResponse.delete(oldest);
    }
    this.byResponse.set(responseId, isHold(held) ? held : null);
    return isHold(held) ? null : held;
  }

  /**
   * The response `responseId` (undefined: not named) ended and was charged: its hold is let go. One the upstream named
   * but never announced (or announced so long ago its hold was let go) lets go of none, unless the upstream announces
   * none at all (a replay): then the oldest admitted hold, as the session's order gives it.
   */
  settled(responseId: string | undefined): void {
    if (responseId !== undefined && this.byResponse.has(responseId)) {
      this.byResponse.get(responseId)?.release();
      this.byResponse.delete(responseId);
      return;
    }
    if (responseId === undefined || !this.announcing) this.admitted.shift()?.held.release();
  }

  /** The session ended: every hold is let go. */
  close(): void {
    for (const { held } of this.admitted.splice(0)) held.release();
    for (const held of this.byResponse.values()) held?.release();
    this.byResponse.clear();
  }
}

function isHold(value: HoldOrRefusal): value is Reservation {
  return 'release' in value;
}

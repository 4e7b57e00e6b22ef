// A kept render's answer crosses to the journal thread as its identity and a slot naming the render's layout, the layout's bytes sent once per slot: the thread makes the answer's bytes again from them, so the event loop neither holds nor moves them.
import type { KeptLayout, KeptMark } from '../../../shared/journal.ts';
import { writeAtHoles } from '../hole-writes.ts';

/**
 * Layouts the journal thread keeps at once, one per slot: the event loop chooses each slot (the one used longest ago is
 * given to a new layout), so both sides agree on what every slot holds without waiting for each other. At most this
 * many times MAX_KEPT_STREAM_BYTES (32 KiB) on the thread.
 */
export const JOURNAL_KEPT_SLOTS = 64;

/** A layout's first use in a batch since its slot was given to it: the slot, the render's id and the layout itself. */
export interface KeptSlotDefinition {
  readonly slot: number;
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly holes: readonly number[];
  readonly identityBytes: number;
}

/** What a row carries to the thread for a kept render's answer: its layout's slot, or the slot's definition. */
export type KeptRef = number | KeptSlotDefinition;

/**
 * The event loop's side: which layout each slot holds on the thread it posts to. `refer` gives a mark the ref its row
 * carries: the slot, or on the layout's first use (or after its slot went to another) the definition, which the thread
 * reads before the rows after it. Valid for one thread: a new one (`forThread`) starts with no slot given.
 */
export class KeptSlots {
  /** Slots by layout, the one used longest ago first. */
  private readonly slots = new Map<KeptLayout, number>();
  private thread: object | undefined;
  /** Batches numbered for the thread (see `nextBatch`). */
  private batches = 0;

  /** Forgets every slot given unless `thread` is the one they were given on (a new thread's batches are numbered from 1). */
  forThread(thread: object): void {
    if (this.thread === thread) return;
    this.thread = thread;
    this.slots.clear();
    this.batches = 0;
  }

  /**
   * The number of the next batch posted to the thread: one more than the last one's. A thread that meets a number it
   * did not expect (a batch before it never arrived, or was never posted) forgets every slot (`KeptLayouts.batch`), so a
   * slot a missing batch gave to another layout is never read as its old one.
   */
  nextBatch(): number {
    return ++this.batches;
  }

  /** Forgets every slot given (a batch that may not have reached the thread defined some). */
  forget(): void {
    this.thread = undefined;
    this.slots.clear();
  }

  /** The ref of `mark`'s layout, the layout now the one used last. */
  refer(mark: Pick<KeptMark, 'id' | 'layout'>): KeptRef {
    const { layout } = mark;
    const slot = this.slots.get(layout);
    if (slot !== undefined) {
      this.slots.delete(layout);
      this.slots.set(layout, slot);
      return slot;
    }
    let given = this.slots.size;
    if (given >= JOURNAL_KEPT_SLOTS) {
      const [oldest, freed] = this.slots.entries().next().value!;
      this.slots.delete(oldest);
      given = freed;
    }
    this.slots.set(layout, given);
    return { slot: given, id: mark.id, bytes: layout.bytes, holes: layout.holes, identityBytes: layout.identityBytes };
  }
}

/** A layout as the thread keeps it: its own copy of the bytes, with the identity last written into them. */
export interface SlotLayout {
  readonly id: number;
  readonly bytes: Buffer;
  readonly holes: readonly number[];
  readonly identityBytes: number;
  written: string | undefined;
}

/** The thread's side: the layout in each slot, as the rows' refs define them. */
export class KeptLayouts {
  private readonly slots: (SlotLayout | undefined)[] = [];
  /** The number the next batch should have (see KeptSlots `nextBatch`). */
  private expected = 1;

  /**
   * Told a batch's number before its refs are read: after a gap (a batch missing) every slot is forgotten, its refs to
   * slots defined before then read as none (the answers stored without their text, never as another layout's).
   */
  batch(number: number): void {
    if (number !== this.expected) this.slots.length = 0;
    this.expected = number + 1;
  }

  /** The layout `ref` names (a definition first fills its slot); undefined for a slot never defined, or anything else. */
  layoutOf(ref: KeptRef): SlotLayout | undefined {
    if (typeof ref === 'number') return this.slots[ref];
    if (typeof ref !== 'object' || ref === null || !(ref.bytes instanceof Uint8Array) || !Number.isInteger(ref.slot)) return undefined;
    const layout: SlotLayout = {
      id: ref.id,
      // A copy of its own: identities are written into it.
      bytes: Buffer.from(ref.bytes),
      holes: ref.holes,
      identityBytes: ref.identityBytes,
      written: undefined,
    };
    this.slots[ref.slot] = layout;
    return layout;
  }
}

/**
 * The answer `layout` with `identity` written in: the very bytes the call wrote (the layout's own storage, valid until
 * the next answer of this slot is made); undefined for an identity of another length, which no call of this layout has.
 */
export function answerBytesOf(layout: SlotLayout, identity: string): Buffer | undefined {
  if (layout.written !== identity) {
    if (Buffer.byteLength(identity) !== layout.identityBytes) return undefined;
    writeAtHoles(layout.bytes, layout.holes, identity, layout.identityBytes);
    layout.written = identity;
  }
  return layout.bytes;
}

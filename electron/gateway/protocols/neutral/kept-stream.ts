// A kept answer's whole stream rendered once per codec variant as UTF-8 bytes, each call's identity (id, time, model) written into a copy of them.
import { ENDED, Hold, NO_MORE, PulledItems, type AtHand } from '../at-hand.ts';
import type { KeptMark } from '../../../../shared/journal.ts';
import { WrittenBytes } from '../named-event.ts';
import { writeAtHoles } from '../../hole-writes.ts';
import type { ChatDelta } from './deltas.ts';

/**
 * Bytes a kept answer's stream may take, the call's identities written in, and still be written as its render (per codec
 * variant); a longer one (a long answer, or a long model name written in every chunk) is made through the codec's stages
 * for that call. It bounds what the answer cache holds for streams: at most ANSWER_CACHE_ENTRIES answers, per variant
 * streamed one layout of at most this many bytes. Under server/sse.ts's AT_HAND_WRITE_CHARS, so a stream written as its
 * render leaves in one write, after everything it metered: a client that leaves is charged as on the stages.
 */
export const MAX_KEPT_STREAM_BYTES = 32 * 1024;

/** Renders made so far in this process: the next one's id. */
let rendersMade = 0;

/** A kept answer's stream: its frozen deltas (shared by every stream of it) and the renders codecs made of them. */
export class KeptStream {
  readonly deltas: readonly ChatDelta[];
  /** Per codec variant: the stream rendered, or null when it is not kept rendered (too long, or its identity not found alone). */
  readonly renders = new Map<string, StreamTemplate | null>();
  constructor(deltas: readonly ChatDelta[]) {
    this.deltas = deltas;
  }
}

/** The deltas `from` to `to` (not included) of a kept stream, passed on together: what the metering gives out between its Holds. */
export class KeptSpan {
  readonly from: number;
  readonly to: number;
  constructor(from: number, to: number) {
    this.from = from;
    this.to = to;
  }
}

/**
 * A kept answer's stream at hand (see ChatStream.keptAtHand): the stream, and its deltas given out in spans with the Holds a
 * stage put among them, made (and metered) only when a codec writes it as its render; each call starts over.
 */
export interface KeptSpans {
  readonly kept: KeptStream;
  spans(): AtHand<KeptSpan>;
}

/** How a codec renders a kept stream: its variant, its stages over deltas at hand, an event's frame, and the identity it writes. */
export interface KeptStreamCodec<Meta, Event> {
  /** Names what changes the stream's bytes besides the identity (the call's options), so each is rendered once. */
  variant: string;
  /** The codec's events of `deltas` at hand for `meta` (its `streamAtHand`): Holds passed on where they stood. */
  stage(deltas: AtHand<ChatDelta>, meta: Meta): Iterable<Event | Hold>;
  /** An event's frame (its text on the wire). */
  frame(event: Event): string;
  /** The meta whose identity is `identity(blank)`: each place that identity text stands is where a call's own goes. */
  blank: Meta;
  /** A probe meta unlike `blank` in every part, to check that the identity is all that changes between calls. */
  probe: Meta;
  /** The text the stream writes for `meta`'s identity (the same in every event that carries it). */
  identity(meta: Meta): string;
}

/**
 * The events of a kept stream as `codec` writes them for `meta`: each span of its deltas (the Holds among them passed on)
 * one `WrittenBytes` of its frames, cut from one copy of the stream rendered once per variant, with `meta`'s identity
 * written in; undefined when it is not written so (not kept rendered, or over MAX_KEPT_STREAM_BYTES with this identity):
 * the caller then makes it through the codec's stages, and the spans are not asked for.
 */
export function keptFrames<Meta, Event>(
  { kept, spans }: KeptSpans,
  codec: KeptStreamCodec<Meta, Event>,
  meta: Meta,
): Iterable<WrittenBytes | Hold> | undefined {
  const filled = templateOf(kept, codec)?.filled(codec.identity(meta));
  return filled && new KeptFrames(spans(), kept.deltas.length, filled);
}

/** A call's copy of a render: its bytes, where each delta's frames start in them, and which render with which identity. */
interface Filled {
  bytes: Buffer;
  marks: readonly number[];
  kept: KeptMark;
}

/**
 * The stream rendered once: its bytes laid out for identities of one length (the last call's that fit: nearly every
 * call's), where each identity goes in them, and where each delta's frames start. Only the laid-out bytes are kept (at
 * most MAX_KEPT_STREAM_BYTES); identities of another length lay them out anew, when they fit.
 */
class StreamTemplate {
  /** This render's id in the process (see `KeptMark`). */
  private readonly id = ++rendersMade;
  /** Where an identity goes, in order, and where each delta boundary (0 to the deltas' count) falls: in the bytes with every identity left out. */
  private readonly holes: readonly number[];
  private readonly marks: readonly number[];
  /** Identities before each mark. */
  private readonly holesBefore: readonly number[];
  /** The bytes with every identity left out. */
  private readonly constantBytes: number;
  /**
   * The bytes for identities of `identityBytes` bytes (the holes left as they are), and where the holes and marks fall in
   * them: never changed once made (a call's mark names it, and the journal makes its answer from it).
   */
  private laid: { identityBytes: number; bytes: Buffer; holes: readonly number[]; marks: readonly number[] };

  /** `constant`: the frames' bytes with every identity left out. */
  constructor(constant: Buffer, holes: readonly number[], marks: readonly number[]) {
    this.holes = holes;
    this.marks = marks;
    this.holesBefore = marks.map((mark) => holes.filter((hole) => hole < mark).length);
    this.constantBytes = constant.length;
    this.laid = { identityBytes: 0, bytes: constant, holes, marks };
  }

  /** The bytes it keeps laid out (what MAX_KEPT_STREAM_BYTES bounds). */
  get keptBytes(): number {
    return this.laid.bytes.length;
  }

  /**
   * The stream's bytes with `identity` written at every hole (a copy of its own), and where each delta's frames start in
   * them; undefined when they would be over MAX_KEPT_STREAM_BYTES (nothing laid out for them).
   */
  filled(identity: string): Filled | undefined {
    const size = Buffer.byteLength(identity);
    if (this.constantBytes + this.holes.length * size > MAX_KEPT_STREAM_BYTES) return undefined;
    const laid = this.laidFor(size);
    // Storage of its own (never Node's shared pool): once written, the journal may move it to its thread.
    const bytes = Buffer.allocUnsafeSlow(laid.bytes.length);
    laid.bytes.copy(bytes);
    writeAtHoles(bytes, laid.holes, identity, size);
    return { bytes, marks: laid.marks, kept: { id: this.id, identity, layout: laid } };
  }

  /** The layout for identities of `size` bytes, made from the last one when their sizes differ (the last one then dropped). */
  private laidFor(size: number) {
    const last = this.laid;
    if (last.identityBytes === size) return last;
    const holes = this.holes;
    const bytes = Buffer.alloc(last.bytes.length + holes.length * (size - last.identityBytes));
    const at: number[] = [];
    let from = 0;
    for (const [index, hole] of holes.entries()) {
      last.bytes.copy(bytes, from + index * size, from + index * last.identityBytes, hole + index * last.identityBytes);
      at.push(hole + index * size);
      from = hole;
    }
    last.bytes.copy(bytes, from + holes.length * size, from + holes.length * last.identityBytes);
    const marks = this.marks.map((mark, index) => mark + this.holesBefore[index]! * size);
    return (this.laid = { identityBytes: size, bytes, holes: at, marks });
  }
}

/** The kept stream rendered by `codec` (made on its first stream of that variant), or null when it is not kept rendered. */
function templateOf<Meta, Event>(kept: KeptStream, codec: KeptStreamCodec<Meta, Event>): StreamTemplate | null {
  let template = kept.renders.get(codec.variant);
  if (template === undefined) {
    template = rendered(kept.deltas, codec);
    kept.renders.set(codec.variant, template);
  }
  return template;
}

/**
 * `deltas` rendered through `codec`'s stages for its blank identity, where each delta's frames start noted, and the
 * places of the identity found; checked against a render for the probe identity, which must differ only there.
 */
function rendered<Meta, Event>(deltas: readonly ChatDelta[], codec: KeptStreamCodec<Meta, Event>): StreamTemplate | null {
  const blank = framesOf(deltas, codec, codec.blank);
  const blankIdentity = codec.identity(codec.blank);
  const probeIdentity = codec.identity(codec.probe);
  if (blank === null || blankIdentity === '' || blankIdentity === probeIdentity) return null;
  const parts = blank.text.split(blankIdentity);
  const probe = framesOf(deltas, codec, codec.probe);
  if (probe === null) return null;
  // The identity must be all that differs, wherever it stands, and each delta's frames must be the same but for it.
  if (probe.text !== parts.join(probeIdentity)) return null;
  const constant = Buffer.from(parts.join(''));
  if (constant.length > MAX_KEPT_STREAM_BYTES) return null;
  const holes: number[] = [];
  const holeChars: number[] = [];
  let bytes = 0;
  let chars = 0;
  for (const part of parts.slice(0, -1)) {
    bytes += Buffer.byteLength(part);
    chars += part.length;
    holes.push(bytes);
    holeChars.push(chars);
    chars += blankIdentity.length;
  }
  const growth = probeIdentity.length - blankIdentity.length;
  const marks: number[] = [];
  for (const [index, mark] of blank.marks.entries()) {
    const before = holeChars.filter((hole) => hole < mark).length;
    if (probe.marks[index] !== mark + before * growth) return null;
    marks.push(Buffer.byteLength(blank.text.slice(0, mark)) - before * Buffer.byteLength(blankIdentity));
  }
  return new StreamTemplate(constant, holes, marks);
}

/**
 * The frames of `deltas` for `meta`, with a mark before each delta and after the last (the end's frames after it); null
 * when the stage puts a Hold of its own among them or does not pass each mark on (its stream cannot be cut at the marks).
 */
function framesOf<Meta, Event>(
  deltas: readonly ChatDelta[],
  codec: KeptStreamCodec<Meta, Event>,
  meta: Meta,
): { text: string; marks: number[] } | null {
  const marker = new Hold(undefined);
  const items: (ChatDelta | Hold)[] = [];
  for (const delta of deltas) items.push(marker, delta);
  items.push(marker);
  let text = '';
  const marks: number[] = [];
  for (const item of codec.stage(items, meta)) {
    if (item === marker) marks.push(text.length);
    else if (item instanceof Hold) return null;
    else text += codec.frame(item);
  }
  return marks.length === deltas.length + 1 ? { text, marks } : null;
}

/**
 * The spans of a kept stream, each given out as its frames' bytes (views of the call's copy of the rendered stream), the
 * Holds among them passed on; the spans closed when the consumer stops.
 */
class KeptFrames implements IterableIterator<WrittenBytes | Hold> {
  private readonly spans: PulledItems<KeptSpan>;
  /** The stream's deltas: a span that ends at the last one also gives out the end's frames. */
  private readonly count: number;
  private readonly filled: Filled;

  constructor(spans: AtHand<KeptSpan>, count: number, filled: Filled) {
    this.spans = new PulledItems(spans);
    this.count = count;
    this.filled = filled;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<WrittenBytes | Hold> {
    const span = this.spans.next();
    if (span === NO_MORE) return ENDED;
    if (span instanceof Hold) return { value: span, done: false };
    const { bytes, marks, kept } = this.filled;
    const last = span.to === this.count;
    const from = span.from === 0 ? 0 : marks[span.from]!;
    return { value: new WrittenBytes(bytes.subarray(from, last ? bytes.length : marks[span.to]!), kept), done: false };
  }

  return(): IteratorReturnResult<undefined> {
    this.spans.close();
    return ENDED;
  }
}

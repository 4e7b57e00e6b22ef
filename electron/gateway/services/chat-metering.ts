// Bills chat calls: a whole answer from its usage, a stream on its usage delta, or, cut short, for what it delivered; relayed answers by the upstream's usage.
import { ENDED, Hold, NO_MORE, PulledItems, type AtHand } from '../protocols/at-hand.ts';
import type { ChatRequest, ChatResult, ChatUsage } from '../protocols/neutral/chat.ts';
import type { ChatDelta, ChatStream } from '../protocols/neutral/deltas.ts';
import { KeptSpan, type KeptSpans } from '../protocols/neutral/kept-stream.ts';
import { TokenCounter } from '../protocols/neutral/token-counter.ts';
import { countRequestTokens, countTokens } from '../protocols/neutral/tokens.ts';
import type { CallContext, RelayedUsage } from '../providers/types.ts';
import type { BillingService } from './billing.ts';
import type { Reservation } from './quota-ledger.ts';
import { boundUsage, callSizeOf, outputLimitOf, usageBoundOf, type CallSize } from './usage-bounds.ts';
import type { Principal } from '../principal.ts';

/** Who pays for a chat call, and under which endpoint and model it is recorded. */
export interface ChatBill {
  principal: Principal;
  endpoint: string;
  model: string;
  /** What the request holds, which bounds the usage believed (absent: the loose bounds of a call not held whole). */
  size?: CallSize | undefined;
}

/**
 * The bill of `call`, which asks the chat requests `chats`: paid by `principal` under `endpoint` and `model`, its usage bounded
 * by what the request holds (`heldContext`: earlier turns kept here or upstream may add to its input).
 */
export function chatBillOf(
  call: CallContext,
  principal: Principal,
  endpoint: string,
  model: string,
  chats: () => readonly ChatRequest[],
  heldContext = false,
): ChatBill {
  return { principal, endpoint, model, size: callSizeOf(call, chats, heldContext) };
}

export class ChatMetering {
  private readonly billing: BillingService;
  constructor(billing: BillingService) {
    this.billing = billing;
  }

  /**
   * Holds the most the chat requests `chats()` can cost against the caller's quota, before anything is generated or sent
   * upstream: their input estimate and their output limits (or the default output bound); throws the quota refusal.
   * `chats` is asked only for a token with a quota.
   */
  reserve(bill: ChatBill, chats: () => readonly ChatRequest[]): Reservation {
    return this.billing.reserve(bill.principal, () => {
      const asked = chats();
      return {
        model: bill.model,
        inputTokens: asked.reduce((sum, chat) => sum + countRequestTokens(chat), 0),
        outputTokens: outputLimitOf(asked),
      };
    });
  }

  /** Charges a whole answer for its usage, bounded; resolves once the charge is durable (await it before answering). */
  chargeResult(bill: ChatBill, result: ChatResult): Promise<void> {
    try {
      let answerSize = 0;
      for (const choice of result.choices) {
        answerSize += choice.text.length;
        for (const call of choice.toolCalls) answerSize += call.arguments.length;
      }
      const output = () => result.choices.reduce((sum, choice) => sum + countTokens(choice.text), 0);
      return this.chargeCommitted(
        bill,
        this.bounded(bill, result.usage, answerSize, () => inputEstimateOf(bill), output),
      );
    } catch (error) {
      // As from an async function: a failure is the promise's.
      return Promise.reject(error as Error);
    }
  }

  /**
   * Charges a relayed answer by the upstream's own usage; a figure it did not carry (a stream cut short) is estimated:
   * the input by `inputEstimate` (asked only then), the output as the token estimate of the text delivered.
   */
  chargeRelayed(bill: ChatBill, usage: RelayedUsage, inputEstimate: () => number): void {
    // Bytes unknown (no byte stream passed): the output is bounded by the asked limit alone.
    const answerSize = usage.answerBytes ?? 0;
    // The relayed answer has gone out already: the charge joins this turn's group commit (see BillingService.chargeAnswered).
    this.chargeAnswered(
      bill,
      this.bounded(bill, usage, answerSize, inputEstimate, () => usage.delivered.tokens),
    );
  }

  /** `reported` within the bounds of `bill`'s request and an answer of `answerSize`, else the estimates, with a journal note. */
  private bounded(
    bill: ChatBill,
    reported: { inputTokens?: number | undefined; outputTokens?: number | undefined },
    answerSize: number,
    input: () => number,
    output: () => number,
  ): { inputTokens: number; outputTokens: number } {
    const usage = boundUsage(reported, () => usageBoundOf(bill.size, answerSize), { input, output });
    if (usage.note !== undefined) bill.principal.notes?.note(usage.note);
    return usage;
  }

  /**
   * `stream`, charged exactly once: on its usage delta (before the delta is passed on), or, when it ends without
   * one (the client hung up, the producer stopped), for what was delivered: the input tokens (the stream's own
   * count, else `inputEstimate`, asked only then) and the token estimate of the text and tool arguments already passed on.
   */
  meter(stream: ChatStream, bill: ChatBill, inputEstimate: () => number): ChatStream {
    const inputTokens = () => stream.inputTokens ?? inputEstimate();
    const atHand = stream.atHand;
    const keptAtHand = atHand && stream.keptAtHand;
    const startMeter = () => this.streamMeter(bill, inputTokens, true);
    const tellFirstOutput = () => bill.principal.notes?.firstOutput();
    return {
      ...(stream.inputTokens !== undefined && { inputTokens: stream.inputTokens }),
      [Symbol.asyncIterator]: () => this.metered(stream, bill, inputTokens),
      ...(atHand && { atHand: () => new MeteredAtHand(atHand(), startMeter, tellFirstOutput) }),
      ...(keptAtHand && {
        keptAtHand: {
          kept: keptAtHand.kept,
          spans: () => new MeteredSpans(keptAtHand.kept.deltas, keptAtHand.spans(), startMeter, tellFirstOutput),
        } satisfies KeptSpans,
      }),
    };
  }

  private async *metered(stream: ChatStream, bill: ChatBill, inputTokens: () => number): AsyncGenerator<ChatDelta> {
    const meter = this.streamMeter(bill, inputTokens);
    try {
      for await (const delta of stream) {
        if (meter.firstOutput(delta)) bill.principal.notes?.firstOutput();
        const charge = meter.pass(delta);
        // Committed (with the turn's other bookkeeping) before the usage event goes out.
        if (charge) await charge;
        yield delta;
      }
    } finally {
      meter.end();
    }
  }

  /**
   * The meter of one stream of `bill`: its usage charge bounded by what was delivered, committed; or, without one, charged
   * for what was. `atHand`: the stream's answer is all in memory, so the meter keeps what passed and counts it only if asked.
   */
  private streamMeter(bill: ChatBill, inputTokens: () => number, atHand = false): StreamMeter {
    return new StreamMeter(
      (reported, answerSize, delivered) => this.chargeCommitted(bill, this.bounded(bill, reported, answerSize, inputTokens, delivered)),
      (outputTokens) => this.chargeAnswered(bill, { inputTokens: inputTokens(), outputTokens }),
      atHand,
    );
  }

  private chargeCommitted(bill: ChatBill, usage: { inputTokens: number; outputTokens: number }): Promise<void> {
    const { inputTokens, outputTokens } = usage;
    return this.billing.chargeCommitted(bill.principal, { endpoint: bill.endpoint, model: bill.model, inputTokens, outputTokens });
  }

  private chargeAnswered(bill: ChatBill, usage: { inputTokens: number; outputTokens: number }): void {
    this.billing.chargeAnswered(bill.principal, { endpoint: bill.endpoint, model: bill.model, ...usage });
  }
}

/**
 * What the metering of a stream at hand shares, its deltas given out one by one (`MeteredAtHand`) or in spans
 * (`MeteredSpans`): an iterator written out (a generator's resume per delta was the stream's largest own cost) that steps
 * as `ChatMetering.metered` does. The meter starts on the first pull (a stream never pulled is never charged), before the
 * items open (a meter started ends even when they fail to open); it ends once (charging what was delivered when no usage
 * charge was committed) when the items end or throw, when metering throws (the items then closed), or when the consumer
 * returns (the items closed first).
 */
abstract class MeteredPulls<In, Out> implements IterableIterator<Out | Hold> {
  protected readonly items: PulledItems<In>;
  private readonly startMeter: () => StreamMeter;
  protected readonly tellFirstOutput: () => void;
  private meter: StreamMeter | undefined;
  private ended = false;

  constructor(items: AtHand<In>, startMeter: () => StreamMeter, tellFirstOutput: () => void) {
    this.items = new PulledItems(items);
    this.startMeter = startMeter;
    this.tellFirstOutput = tellFirstOutput;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Out | Hold> {
    if (this.ended) return ENDED;
    try {
      return this.step((this.meter ??= this.startMeter()));
    } catch (error) {
      this.end(true);
      throw error;
    }
  }

  /** The consumer stopped: the items are closed, then the meter ends. */
  return(): IteratorReturnResult<undefined> {
    // Like a generator's return, a stream never pulled ends without its meter started (nothing charged, nothing opened).
    this.end();
    return ENDED;
  }

  /** What the next pull gives out, `meter` passed what it stands for (`finished()` once the items ended). */
  protected abstract step(meter: StreamMeter): IteratorResult<Out | Hold>;

  /** The items ended: the meter ends. */
  protected finished(): IteratorReturnResult<undefined> {
    this.end();
    return ENDED;
  }

  /**
   * Ends once: closes the items when still open, then ends the meter (its charge for what was delivered). `thrown`: a
   * step threw, and as a for-of closing its items on a throw, that error goes on, not one of closing the items.
   */
  private end(thrown = false): void {
    if (this.ended) return;
    this.ended = true;
    try {
      this.items.close(thrown);
    } finally {
      this.meter?.end();
    }
  }
}

/**
 * `ChatMetering.metered` over deltas all at hand: the charge's commit is a Hold before the usage delta, which the writer
 * waits for, and the first output is noted by a Hold's `sent` before it. Each delta is passed to the meter on the pull
 * that gives it (or its charge's Hold) out.
 */
class MeteredAtHand extends MeteredPulls<ChatDelta, ChatDelta> {
  /** A delta given out next: after its first output's Hold (`unpassed`: not yet passed to the meter) or its charge's Hold. */
  private held: ChatDelta | undefined;
  private unpassed = false;

  protected step(meter: StreamMeter): IteratorResult<ChatDelta | Hold> {
    const held = this.held;
    if (held !== undefined) {
      this.held = undefined;
      if (!this.unpassed) return { value: held, done: false };
      this.unpassed = false;
      return this.passed(meter, held);
    }
    const delta = this.items.next();
    if (delta === NO_MORE) return this.finished();
    if (delta instanceof Hold) return { value: delta, done: false };
    // Noted when the writer sends it, which for a stream at hand may be after the charge below.
    if (meter.firstOutput(delta)) {
      this.held = delta;
      this.unpassed = true;
      return { value: new Hold(undefined, this.tellFirstOutput), done: false };
    }
    return this.passed(meter, delta);
  }

  /** `delta` passed to the meter: given out now, or after its charge's Hold. */
  private passed(meter: StreamMeter, delta: ChatDelta): IteratorResult<ChatDelta | Hold> {
    const charge = meter.pass(delta);
    if (charge === undefined) return { value: delta, done: false };
    // Charged once the commit went through, even when the writer then stops here (the client left during the wait);
    // a failed commit leaves it uncharged, so the end charges what was delivered, as the async path does.
    this.held = delta;
    return { value: new Hold(charge), done: false };
  }
}

/**
 * `MeteredAtHand` over a kept answer's deltas given out in spans (asked for only when its stream is written as its render,
 * which leaves in one write: see MAX_KEPT_STREAM_BYTES): each delta is passed to the meter as there, and a span is cut
 * where a Hold goes (the first output's before its delta, the charge's before the usage delta), so the spans and Holds
 * given out stand for the same deltas and Holds in the same order.
 */
class MeteredSpans extends MeteredPulls<KeptSpan, KeptSpan> {
  private readonly deltas: readonly ChatDelta[];
  /** The span being walked: its deltas from `start` on are given out next, those before `at` already passed to the meter. */
  private span: KeptSpan | undefined;
  private start = 0;
  private at = 0;
  /** A Hold given out next, after the part of the span before it. */
  private held: Hold | undefined;

  constructor(deltas: readonly ChatDelta[], spans: AtHand<KeptSpan>, startMeter: () => StreamMeter, tellFirstOutput: () => void) {
    super(spans, startMeter, tellFirstOutput);
    this.deltas = deltas;
  }

  protected step(meter: StreamMeter): IteratorResult<KeptSpan | Hold> {
    const held = this.held;
    if (held !== undefined) {
      this.held = undefined;
      return { value: held, done: false };
    }
    for (;;) {
      const span = this.span;
      if (span === undefined) {
        const next = this.items.next();
        if (next === NO_MORE) return this.finished();
        if (next instanceof Hold) return { value: next, done: false };
        this.span = next;
        this.start = this.at = next.from;
        continue;
      }
      const deltas = this.deltas;
      while (this.at < span.to) {
        const index = this.at;
        const delta = deltas[index]!;
        // Its first output is noted when the writer sends it: the Hold, then the delta, passed on the next pull.
        if (meter.firstOutput(delta)) return this.cut(index, new Hold(undefined, this.tellFirstOutput));
        this.at = index + 1;
        const charge = meter.pass(delta);
        if (charge !== undefined) return this.cut(index, new Hold(charge));
      }
      this.span = undefined;
      if (this.start < span.to) return { value: new KeptSpan(this.start, span.to), done: false };
    }
  }

  /** The span's deltas before `index` given out (when any), then `hold`; the span goes on from `index`. */
  private cut(index: number, hold: Hold): IteratorResult<KeptSpan | Hold> {
    const start = this.start;
    this.start = index;
    if (start === index) return { value: hold, done: false };
    this.held = hold;
    return { value: new KeptSpan(start, index), done: false };
  }
}

/** The input estimate of the chat requests `bill`'s request holds (0 when it is not at hand). */
function inputEstimateOf(bill: ChatBill): number {
  return bill.size?.chats().reduce((sum, chat) => sum + countRequestTokens(chat), 0) ?? 0;
}

/**
 * What one stream delivered, as its deltas pass: the output per choice (text) and per tool call (arguments), counted
 * apart so pieces of different outputs never merge into one token and never kept (but for a stream at hand, whose
 * deltas are kept and counted only when a charge asks); the first output told; the charge made once, on the usage
 * delta, or at the end for what was delivered when none came.
 */
class StreamMeter {
  private readonly commit: (reported: ChatUsage, answerSize: number, deliveredTokens: () => number) => Promise<void>;
  private readonly answered: (outputTokens: number) => void;
  private readonly delivered = new Map<string, TokenCounter>();
  /** A stream at hand's text and argument deltas passed and not yet counted; undefined: each is counted as it passes. */
  private readonly uncounted: ChatDelta[] | undefined;
  /** Characters passed on, which bound the output a usage delta may claim. */
  private answerSize = 0;
  private outputSeen = false;
  /** Set once the usage charge is committed (by `pass`'s commit, so the end does not charge again). */
  private charged = false;

  constructor(commit: StreamMeter['commit'], answered: StreamMeter['answered'], atHand: boolean) {
    this.commit = commit;
    this.answered = answered;
    this.uncounted = atHand ? [] : undefined;
  }

  /** True for the stream's first delta of output (text, a tool call or its arguments), once. */
  firstOutput(delta: ChatDelta): boolean {
    if (this.outputSeen || (delta.type !== 'text' && delta.type !== 'tool_arguments' && delta.type !== 'tool_call')) return false;
    this.outputSeen = true;
    return true;
  }

  /**
   * Counts `delta`; a usage delta not yet charged starts its charge, returned to be awaited before the delta goes on:
   * once it is committed the stream counts as charged (a failed commit leaves it to `end`).
   */
  pass(delta: ChatDelta): Promise<void> | undefined {
    if (delta.type === 'usage') {
      if (!this.charged) return this.commit(delta, this.answerSize, this.deliveredTokens).then(this.committed);
    } else if (delta.type === 'text' || delta.type === 'tool_arguments') {
      this.answerSize += delta.type === 'text' ? delta.text.length : delta.fragment.length;
      if (this.uncounted) this.uncounted.push(delta);
      else this.count(delta);
    }
    return undefined;
  }

  /** The stream ended (or was left): charged for what was delivered when no usage charge was committed. */
  end(): void {
    // Nobody waits for this one (the caller left, or the stream ended without usage): it joins the turn's group commit.
    if (!this.charged) this.answered(this.deliveredTokens());
  }

  private readonly committed = (): void => {
    this.charged = true;
  };

  /** Counts a text or argument delta in its output's counter. */
  private count(delta: ChatDelta): void {
    if (delta.type === 'text') this.add(delta.choice === 0 ? '0' : `${delta.choice}`, delta.text);
    else if (delta.type === 'tool_arguments') this.add(`${delta.choice}:${delta.call}`, delta.fragment);
  }

  private add(key: string, text: string): void {
    let counter = this.delivered.get(key);
    if (!counter) this.delivered.set(key, (counter = new TokenCounter()));
    counter.add(text);
  }

  private readonly deliveredTokens = (): number => {
    if (this.uncounted) {
      for (const delta of this.uncounted) this.count(delta);
      this.uncounted.length = 0;
    }
    let outputTokens = 0;
    for (const counter of this.delivered.values()) outputTokens += counter.count;
    return outputTokens;
  };
}

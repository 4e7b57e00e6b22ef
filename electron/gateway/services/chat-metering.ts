// Bills chat calls: a whole answer from its usage, a stream on its usage delta, or, cut short, for what it delivered; relayed answers by the upstream's usage.
import type { ChatRequest, ChatResult } from '../protocols/neutral/chat.ts';
import type { ChatDelta, ChatStream } from '../protocols/neutral/deltas.ts';
import type { KeptSpans } from '../protocols/neutral/kept-stream.ts';
import { countRequestTokens, countTokens } from '../protocols/neutral/tokens.ts';
import type { CallContext, RelayedUsage } from '../providers/types.ts';
import type { BillingService } from './billing.ts';
import type { Reservation } from './quota-ledger.ts';
import { boundUsage, callSizeOf, outputLimitOf, usageBoundOf, type CallSize } from './usage-bounds.ts';
import { MeteredAtHand, MeteredSpans } from './metered-pulls.ts';
import { StreamMeter } from './stream-meter.ts';
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

/** The input estimate of the chat requests `bill`'s request holds (0 when it is not at hand). */
function inputEstimateOf(bill: ChatBill): number {
  return bill.size?.chats().reduce((sum, chat) => sum + countRequestTokens(chat), 0) ?? 0;
}

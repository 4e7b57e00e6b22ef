// Bills chat calls: a whole answer from its usage, a stream on its usage delta, or, cut short, for what it delivered; relayed answers by the upstream's usage.
import type { ChatRequest, ChatResult } from '../protocols/neutral/chat.ts';
import type { ChatDelta, ChatStream } from '../protocols/neutral/deltas.ts';
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
  async chargeResult(bill: ChatBill, result: ChatResult): Promise<void> {
    let answerSize = 0;
    for (const choice of result.choices) {
      answerSize += choice.text.length;
      for (const call of choice.toolCalls) answerSize += call.arguments.length;
    }
    const output = () => result.choices.reduce((sum, choice) => sum + countTokens(choice.text), 0);
    await this.chargeCommitted(
      bill,
      this.bounded(bill, result.usage, answerSize, () => inputEstimateOf(bill), output),
    );
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
      this.bounded(bill, usage, answerSize, inputEstimate, () => usage.deliveredTokens),
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
    const { inputTokens, outputTokens, note } = boundUsage(reported, () => usageBoundOf(bill.size, answerSize), { input, output });
    if (note !== undefined) bill.principal.notes?.note(note);
    return { inputTokens, outputTokens };
  }

  /**
   * `stream`, charged exactly once: on its usage delta (before the delta is passed on), or, when it ends without
   * one (the client hung up, the producer stopped), for what was delivered: the input tokens (the stream's own
   * count, else `inputEstimate`, asked only then) and the token estimate of the text and tool arguments already passed on.
   */
  meter(stream: ChatStream, bill: ChatBill, inputEstimate: () => number): ChatStream {
    return {
      ...(stream.inputTokens !== undefined && { inputTokens: stream.inputTokens }),
      [Symbol.asyncIterator]: () => this.metered(stream, bill, () => stream.inputTokens ?? inputEstimate()),
    };
  }

  private async *metered(stream: ChatStream, bill: ChatBill, inputTokens: () => number): AsyncGenerator<ChatDelta> {
    /** What was delivered, per choice (text) and per tool call (arguments): counted apart, so pieces of different outputs never merge into one token; counted as they pass, never kept. */
    const delivered = new Map<string, TokenCounter>();
    const add = (key: string, text: string) => {
      let counter = delivered.get(key);
      if (!counter) delivered.set(key, (counter = new TokenCounter()));
      counter.add(text);
    };
    const deliveredTokens = () => {
      let outputTokens = 0;
      for (const counter of delivered.values()) outputTokens += counter.count;
      return outputTokens;
    };
    /** Characters passed on, which bound the output a usage delta may claim. */
    let answerSize = 0;
    let charged = false;
    let outputSeen = false;
    try {
      for await (const delta of stream) {
        if (!outputSeen && (delta.type === 'text' || delta.type === 'tool_arguments' || delta.type === 'tool_call')) {
          outputSeen = true;
          bill.principal.notes?.firstOutput();
        }
        if (delta.type === 'usage') {
          // Committed (with the turn's other bookkeeping) before the usage event goes out.
          if (!charged) await this.chargeCommitted(bill, this.bounded(bill, delta, answerSize, inputTokens, deliveredTokens));
          charged = true;
        } else if (delta.type === 'text') {
          add(`${delta.choice}`, delta.text);
          answerSize += delta.text.length;
        } else if (delta.type === 'tool_arguments') {
          add(`${delta.choice}:${delta.call}`, delta.fragment);
          answerSize += delta.fragment.length;
        }
        yield delta;
      }
    } finally {
      if (!charged) {
        const outputTokens = deliveredTokens();
        // Nobody waits for this one (the caller left, or the stream ended without usage): it joins the turn's group commit.
        this.chargeAnswered(bill, { inputTokens: inputTokens(), outputTokens });
      }
    }
  }

  private async chargeCommitted(bill: ChatBill, usage: { inputTokens: number; outputTokens: number }): Promise<void> {
    await this.billing.chargeCommitted(bill.principal, { endpoint: bill.endpoint, model: bill.model, ...usage });
  }

  private chargeAnswered(bill: ChatBill, usage: { inputTokens: number; outputTokens: number }): void {
    this.billing.chargeAnswered(bill.principal, { endpoint: bill.endpoint, model: bill.model, ...usage });
  }
}

/** The input estimate of the chat requests `bill`'s request holds (0 when it is not at hand). */
function inputEstimateOf(bill: ChatBill): number {
  return bill.size?.chats().reduce((sum, chat) => sum + countRequestTokens(chat), 0) ?? 0;
}

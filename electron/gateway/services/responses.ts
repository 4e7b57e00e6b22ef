// Responses API calls that do not stream: a response made by the call's provider (stored when asked, or kept to be polled in the background) and a compaction; billed like every chat call.
import { publicId } from '../ids.ts';
import { compactionItem } from '../protocols/responses/inbound/compaction-item.ts';
import { compactedOutput, compactedResponse, type CompactCall } from '../protocols/responses/inbound/compaction.ts';
import { responsesCodec } from '../protocols/responses/inbound/codec.ts';
import { chatRequestOf, type ResponsesCall } from '../protocols/responses/inbound/request.ts';
import type { CallContext, ProviderSelector } from '../providers/types.ts';
import type { Clock } from '../time.ts';
import type { BillingService } from './billing.ts';
import { ChatMetering, chatBillOf } from './chat-metering.ts';
import type { Conversations } from './conversations.ts';
import type { StoredResponses } from './stored-responses.ts';

type Json = Record<string, unknown>;

/** What the compaction's summary is asked as (the simulated model answers about the conversation's words). */
const SUMMARY_PROMPT = 'Summarize the conversation so far in a few sentences.';

export class ResponsesService {
  private readonly providers: ProviderSelector;
  private readonly metering: ChatMetering;
  private readonly stored: StoredResponses;
  private readonly conversations: Conversations;
  private readonly clock: Clock;
  constructor(deps: {
    providers: ProviderSelector;
    billing: BillingService;
    stored: StoredResponses;
    conversations: Conversations;
    clock: Clock;
  }) {
    this.providers = deps.providers;
    this.metering = new ChatMetering(deps.billing);
    this.stored = deps.stored;
    this.conversations = deps.conversations;
    this.clock = deps.clock;
  }

  /**
   * Runs `answer`, the whole of a call, as its turn on the conversation it names (none: as it is): refused before it runs
   * while another call's turn on that conversation is under way, or when the call's input would not fit there
   * (`Conversations.beginTurn`); the turn ends once `answer` settled. `create`, `conversationOf` and a relayed call's
   * conversation run inside it.
   */
  async inTurn<T>(parsed: ResponsesCall, call: CallContext, answer: () => T | Promise<T>): Promise<T> {
    if (!parsed.conversationId) return answer();
    const end = this.conversations.beginTurn(call.principal.accountId, parsed.conversationId, parsed.input);
    try {
      return await answer();
    } finally {
      end();
    }
  }

  /**
   * The conversation a call answers: a continued stored response's items, or a named conversation's items (its turn
   * begun by `inTurn`), then its own input; and how many came before.
   */
  conversationOf(parsed: ResponsesCall, call: CallContext): { conversation: Json[]; inputFrom: number } {
    const { accountId } = call.principal;
    let earlier: Json[] = [];
    if (parsed.previousResponseId !== null) earlier = this.stored.conversationAfter(accountId, parsed.previousResponseId);
    else if (parsed.conversationId) earlier = this.conversations.items(accountId, parsed.conversationId, 'conversation');
    return { conversation: [...earlier, ...parsed.input], inputFrom: earlier.length };
  }

  /** Adds a finished response's turn (the call's input, then its output) to the conversation it named, if any. */
  addTurn(parsed: ResponsesCall, call: CallContext, response: Json): void {
    if (!parsed.conversationId) return;
    const output = (response['output'] as Json[] | undefined) ?? [];
    this.conversations.append(call.principal.accountId, parsed.conversationId, [...parsed.input, ...output], false);
  }

  /**
   * A whole response (inside `inTurn`): made, checked to fit storage and stored when asked (before the charge: one too
   * large is refused whole), then billed. A background response is answered as the caller sees it now (queued) and polled until done.
   */
  async create(parsed: ResponsesCall, call: CallContext): Promise<Json> {
    const { accountId } = call.principal;
    const { conversation, inputFrom } = this.conversationOf(parsed, call);
    const meta = { id: publicId('resp'), createdAt: Math.floor(this.clock.now() / 1000), newId: publicId };
    const chat = chatRequestOf(parsed, conversation);
    const result = await this.providers.for(call, parsed.model).chat.complete(chat, call);
    const response = responsesCodec.render(result, parsed, meta) as Json;
    if (parsed.store) {
      this.stored.save(accountId, meta.id, this.stored.prepare(conversation, response, inputFrom), { background: parsed.background });
    }
    this.addTurn(parsed, call, response);
    const heldContext = parsed.previousResponseId !== null || Boolean(parsed.conversationId);
    const bill = chatBillOf(call, call.principal, call.endpoint, parsed.model, () => [chat], heldContext);
    await this.metering.chargeResult(bill, result);
    return parsed.background ? this.stored.get(accountId, meta.id) : response;
  }

  /** A compaction of the conversation: its user messages kept, the rest summarised by the call's model into one `compaction` item; billed. */
  async compact(parsed: CompactCall, call: CallContext): Promise<Json> {
    const asResponses = compactionAsResponses(parsed);
    const { conversation } = this.conversationOf(asResponses, call);
    const request = chatRequestOf(asResponses, [
      ...conversation,
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: SUMMARY_PROMPT }] },
    ]);
    const result = await this.providers.for(call, parsed.model).chat.complete(request, call);
    await this.metering.chargeResult({ principal: call.principal, endpoint: call.endpoint, model: parsed.model }, result);
    const summary = result.choices[0]?.text ?? '';
    const output = compactedOutput(conversation, compactionItem(publicId('cmp'), summary), publicId);
    return compactedResponse(publicId('resp'), Math.floor(this.clock.now() / 1000), output, result.usage, parsed.imageCompression);
  }
}

/**
 * A compaction as the Responses call it is answered by (its input, no tools, plain text): what the simulator summarises,
 * and what a route holds the quota for, before it is made or relayed.
 */
export function compactionAsResponses(parsed: CompactCall): ResponsesCall {
  return {
    model: parsed.model,
    input: parsed.input,
    instructions: parsed.instructions,
    tools: [],
    allowedTools: [],
    toolChoice: 'none',
    toolChoiceEcho: 'none',
    format: { type: 'text' },
    formatEcho: { type: 'text' },
    maxOutputTokens: null,
    temperature: null,
    topP: null,
    parallelToolCalls: null,
    reasoningEffort: null,
    reasoningSummary: false,
    store: false,
    stream: false,
    background: false,
    previousResponseId: parsed.previousResponseId,
    metadata: {},
  };
}

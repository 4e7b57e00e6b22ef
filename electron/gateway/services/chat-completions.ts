// Chat completions that do not stream: answered by the call's provider, stored when asked (`store: true`), billed; shared by the route and batch lines.
import { GatewayError } from '../errors.ts';
import { publicId } from '../ids.ts';
import type { ChatDelta } from '../protocols/neutral/deltas.ts';
import { chatCompletionText, type CompletionMeta } from '../protocols/openai/inbound/chat-response.ts';
import { openaiChatCodec } from '../protocols/openai/inbound/chat-codec.ts';
import type { ChatCall } from '../protocols/openai/inbound/chat-request.ts';
import type { CallContext, ChatProvider, ProviderSelector } from '../providers/types.ts';
import type { Clock } from '../time.ts';
import type { BillingService } from './billing.ts';
import { ChatMetering, chatBillOf, type ChatBill } from './chat-metering.ts';
import type { StoredChatCompletions } from './stored-chat-completions.ts';

export class ChatCompletionsService {
  private readonly providers: ProviderSelector;
  private readonly metering: ChatMetering;
  private readonly stored: StoredChatCompletions;
  private readonly clock: Clock;
  constructor(deps: { providers: ProviderSelector; billing: BillingService; stored: StoredChatCompletions; clock: Clock }) {
    this.providers = deps.providers;
    this.metering = new ChatMetering(deps.billing);
    this.stored = deps.stored;
    this.clock = deps.clock;
  }

  /** The identity of a new completion. */
  meta(model: string) {
    return { id: publicId('chatcmpl'), created: Math.floor(this.clock.now() / 1000), model };
  }

  /**
   * The deltas of a streamed completion, passed on as they come; with `store: true` the completion they spelled is kept once
   * the stream has ended whole (one too large to store, seen only then, is delivered and not kept).
   */
  keepWhenStored(parsed: ChatCall, call: CallContext, deltas: AsyncIterable<ChatDelta>, meta: CompletionMeta): AsyncIterable<ChatDelta> {
    if (!parsed.store) return deltas;
    return this.stored.recording(deltas, (result) => {
      const completion = openaiChatCodec.render(result, parsed, meta) as Record<string, unknown>;
      try {
        this.stored.save(call.principal.accountId, this.stored.prepare(completion, parsed.messages, parsed.metadata));
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
      }
    });
  }

  /**
   * A whole completion: made, stored when asked (checked to fit before the charge), then billed. `chat`: the
   * capability the call's route chose already (the same the providers give for this call and model); `bill`: the
   * call's bill the route made already (the same `chatBillOf` makes here).
   */
  async create(
    parsed: ChatCall,
    call: CallContext,
    chat = this.providers.for(call, parsed.chat.model).chat,
    bill: ChatBill = chatBillOf(call, call.principal, call.endpoint, parsed.chat.model, () => [parsed.chat]),
  ): Promise<Record<string, unknown>> {
    const result = await chat.complete(parsed.chat, call);
    const completion = openaiChatCodec.render(result, parsed, this.meta(parsed.chat.model)) as Record<string, unknown>;
    if (parsed.store) this.stored.save(call.principal.accountId, this.stored.prepare(completion, parsed.messages, parsed.metadata));
    await this.metering.chargeResult(bill, result);
    return completion;
  }

  /**
   * `create`, answered as the completion's JSON text when nothing else reads it as an object (not stored): a kept simulated
   * answer's text is then rendered once, only its id, created time and model written per call.
   */
  async answer(parsed: ChatCall, call: CallContext, chat: ChatProvider, bill: ChatBill): Promise<Record<string, unknown> | string> {
    if (parsed.store) return this.create(parsed, call, chat, bill);
    const result = await chat.complete(parsed.chat, call);
    const text = chatCompletionText(result, this.meta(parsed.chat.model), { legacyFunctions: parsed.legacyFunctions });
    await this.metering.chargeResult(bill, result);
    return text;
  }
}

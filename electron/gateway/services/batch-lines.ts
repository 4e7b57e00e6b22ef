// Runs one batch line as its endpoint's route would (the same services: chat completions, embeddings, responses, moderations), or relays it when its model is routed to a channel; any failure becomes the line's error answer.
import { GatewayError, HTTP_STATUS, invalid } from '../errors.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import type { BatchEndpoint } from '../protocols/openai/inbound/batches.ts';
import { openaiChatCodec } from '../protocols/openai/inbound/chat-codec.ts';
import { embeddingInputTokens, parseEmbeddingsRequest, renderEmbeddings } from '../protocols/openai/inbound/embeddings.ts';
import { openaiErrorBody } from '../protocols/openai/error-body.ts';
import { responsesCodec } from '../protocols/responses/inbound/codec.ts';
import { chatRequestOf } from '../protocols/responses/inbound/request.ts';
import type { ChatRequest } from '../protocols/neutral/chat.ts';
import type { CallContext, PassthroughOperation, PassthroughProvider, ProviderSelector } from '../providers/types.ts';
import type { BillingService } from './billing.ts';
import type { ChatCompletionsService } from './chat-completions.ts';
import { ChatMetering, chatBillOf } from './chat-metering.ts';
import { NOTHING_HELD, type Reservation } from './quota-ledger.ts';
import type { ModerationService } from './moderations.ts';
import type { RelayedResponses } from './relayed-responses.ts';
import type { ResponsesService } from './responses.ts';
import type { RetrievalService } from './retrieval.ts';

/** Largest relayed answer one line keeps, in bytes; a longer one is the line's error. */
export const MAX_RELAYED_LINE_BYTES = 8 * 1024 * 1024;

/** The answer to one line: an HTTP status and a JSON body. */
export interface LineAnswer {
  status: number;
  body: unknown;
}

/** The pass-through operation of each endpoint a relay forwards. */
const RELAYED: Partial<Record<BatchEndpoint, PassthroughOperation>> = {
  '/v1/chat/completions': 'chat',
  '/v1/embeddings': 'embeddings',
  '/v1/responses': 'responses',
  '/v1/moderations': 'moderations',
};

export interface BatchLinesDeps {
  providers: ProviderSelector;
  billing: BillingService;
  chat: ChatCompletionsService;
  responses: ResponsesService;
  retrieval: RetrievalService;
  moderations: ModerationService;
  /** Which channel stored which relayed Responses id, per account: a line's follow-up goes there, its new id is remembered. */
  relayed: RelayedResponses;
  /** A failure that is not an answer (a bug): reported, and the line answers 500. */
  onError: (error: unknown) => void;
}

/** A batch line read once: its hold on the quota, and its answer when it is not relayed. */
interface LineWork {
  hold(): Reservation;
  answer(): Promise<unknown>;
}

export class BatchLines {
  private readonly deps: BatchLinesDeps;
  private readonly metering: ChatMetering;
  constructor(deps: BatchLinesDeps) {
    this.deps = deps;
    this.metering = new ChatMetering(deps.billing);
  }

  /** The answer to `body` sent to `url` (the call carries the line's body as `rawBody`); never throws. */
  async run(url: BatchEndpoint, body: Record<string, unknown>, call: CallContext): Promise<LineAnswer> {
    try {
      if (body['stream'] === true) throw invalid("Streaming is not available in a batch: leave out 'stream'.", 'stream');
      const model = typeof body['model'] === 'string' ? body['model'] : undefined;
      const operation = RELAYED[url];
      const line = this.read(url, body, call);
      // Held as its route would hold it, before anything is made or sent (its provider chosen too: a line the quota cannot
      // pay for answers 403 and uses no fixture's answer).
      return await line.hold().during(async () => {
        const passthrough = model === undefined ? undefined : this.deps.providers.for(call, model).passthrough;
        if (passthrough && operation && model !== undefined) return this.relay(passthrough, operation, model, body, call);
        return { status: 200, body: await line.answer() };
      });
    } catch (error) {
      // A line stopped because the gateway is stopping is no bug: its answer is dropped and it runs again after the restart.
      if (!(error instanceof GatewayError) && !call.signal.aborted) this.deps.onError(error);
      return lineRefused(
        error instanceof GatewayError ? error : new GatewayError('internal', 'Internal error in the gateway; see its log'),
      );
    }
  }

  /**
   * The line read once: what it holds of its token's quota (a chat's or a response's input estimate and output limit,
   * embeddings' input; moderations are free) and how it is answered here (a relayed line forwards its body instead).
   */
  private read(url: BatchEndpoint, body: Record<string, unknown>, call: CallContext): LineWork {
    const bill = (model: string, chats: () => readonly ChatRequest[]) => chatBillOf(call, call.principal, call.endpoint, model, chats);
    switch (url) {
      case '/v1/chat/completions': {
        const parsed = openaiChatCodec.parse(body);
        const chats = () => [parsed.chat];
        return {
          hold: () => this.metering.reserve(bill(parsed.chat.model, chats), chats),
          answer: () => this.deps.chat.create(parsed, call),
        };
      }
      case '/v1/responses': {
        const parsed = responsesCodec.parse(body);
        const chats = () => [chatRequestOf(parsed, parsed.input)];
        return {
          hold: () => this.metering.reserve(bill(parsed.model, chats), chats),
          answer: async () => {
            if (parsed.background) throw invalid("A batch line runs at once: leave out 'background'.", 'background');
            return this.deps.responses.inTurn(parsed, call, () => this.deps.responses.create(parsed, call));
          },
        };
      }
      case '/v1/embeddings': {
        const { encoding, ...asked } = parseEmbeddingsRequest(body);
        return {
          hold: () =>
            this.deps.billing.reserve(call.principal, () => ({
              model: asked.model,
              inputTokens: embeddingInputTokens(asked.inputs),
              outputTokens: 0,
            })),
          answer: async () => {
            const { vectors, usage } = await this.deps.retrieval.embed(asked, call);
            return renderEmbeddings(asked.model, vectors, usage.inputTokens, encoding);
          },
        };
      }
      case '/v1/moderations':
        return { hold: () => NOTHING_HELD, answer: () => this.deps.moderations.moderate(body, call) };
    }
  }

  /** The line forwarded to the channel serving its model; its answer read whole (bounded) and billed by the upstream's usage. */
  private async relay(
    passthrough: PassthroughProvider,
    operation: PassthroughOperation,
    model: string,
    body: Record<string, unknown>,
    call: CallContext,
  ): Promise<LineAnswer> {
    const { accountId } = call.principal;
    // A conversation id would be read at the channel, with its key: any conversation the key's owner has there.
    if (operation === 'responses' && body['conversation'] !== undefined && body['conversation'] !== null) {
      throw invalid("A batch line relayed to a channel cannot name a 'conversation': send its items as input.", 'conversation');
    }
    const previousId = operation === 'responses' ? body['previous_response_id'] : undefined;
    const previous = typeof previousId === 'string' ? this.deps.relayed.followUp(accountId, previousId) : undefined;
    const reply = await passthrough.forward({ operation, model, stream: false, ...(previous && { channelId: previous.channelId }) }, call);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of reply.body) {
      size += chunk.byteLength;
      if (size > MAX_RELAYED_LINE_BYTES)
        throw new GatewayError('upstream_failed', `The upstream's answer is larger than ${MAX_RELAYED_LINE_BYTES} bytes.`);
      chunks.push(chunk);
    }
    const usage = await reply.usage;
    const estimate = () => (call.rawBody ? countTokens(call.rawBody.toString('utf8')) : 0);
    // Moderations are free, as on the real API (and as the route relays them).
    if (usage && operation !== 'moderations')
      this.metering.chargeRelayed({ principal: call.principal, endpoint: call.endpoint, model }, usage, estimate);
    if (usage?.responseId !== undefined && reply.channelId !== undefined) {
      this.deps.relayed.remember(accountId, usage.responseId, { channelId: reply.channelId, model });
    }
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      return { status: reply.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: reply.status, body: text };
    }
  }
}

/** A line's answer when it failed with `error`: the status and the OpenAI error body its route would have answered. */
export function lineRefused(error: GatewayError): LineAnswer {
  return { status: HTTP_STATUS[error.kind], body: openaiErrorBody(error) };
}

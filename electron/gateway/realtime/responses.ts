// The responses of a realtime session: one at a time in the default conversation (out-of-band ones alongside), cancelled on request, finished with usage.
import { publicId } from '../ids.ts';
import { betaFormat, gaFormat } from './audio-format.ts';
import type { ChatRequest, ChatResult } from '../protocols/neutral/chat.ts';
import type { Entry } from './conversation.ts';
import { invalidField } from './fields.ts';
import { planResponse, streamResponse, type ResponseOutcome, type ResponsePlan } from './responder.ts';
import type { ResponseParams, SessionConfig } from './session-config.ts';
import { presentUsage } from './usage.ts';

/** Why a response was cancelled. */
export type CancelReason = 'client_cancelled' | 'turn_detected';

interface Running {
  id: string;
  conversation: 'auto' | 'none';
  cancelled: boolean;
  reason: CancelReason;
}

/** What the responses need from their session. */
export interface ResponseHost {
  beta: boolean;
  conversationId: string;
  emit(type: string, fields: Record<string, unknown>): void;
  /** An output item of a response that writes to the default conversation starts or ends. */
  onItem(stage: 'added' | 'done', entry: Entry): void;
  pause(): Promise<void>;
  /** The model's voice saying a spoken answer. */
  speak(text: string, speed: number): Promise<Int16Array>;
  speakable(text: string, speed: number): string;
  /**
   * Holds the most a response to `context` under `config` can cost against the caller's quota, before it is planned, or
   * throws the quota refusal (an `error` event, no response); given back once the response was charged or failed.
   */
  hold(config: SessionConfig, context: readonly Entry[]): { release(): void };
  /** The chat model's whole answer to a request (refusals reject). */
  complete(request: ChatRequest): Promise<ChatResult>;
  /**
   * True when the chat model is relayed: a response's usage is the upstream's count of the whole answer (it was asked
   * and paid for whole), not the session's estimate of what was streamed.
   */
  upstreamUsage: boolean;
  /** A response ended (any status): bill it (resolves once the charge is kept, before `response.done` is sent). */
  finished(
    config: SessionConfig,
    outcome: ResponseOutcome,
    usage: ReturnType<typeof presentUsage>,
    plan: ResponsePlan,
  ): void | Promise<void>;
  /** A response failed unexpectedly. */
  failed(error: unknown): void;
}

export class Responses {
  private readonly host: ResponseHost;
  private readonly running = new Map<string, Running>();

  constructor(host: ResponseHost) {
    this.host = host;
  }

  /** The response in progress in the default conversation, if any. */
  get active(): string | undefined {
    return [...this.running.values()].find((run) => run.conversation === 'auto')?.id;
  }

  /** Starts a response over `context` once the model has planned it; its events stream from here on, `response.done` ends them. */
  async start(params: ResponseParams, context: readonly Entry[]): Promise<void> {
    const active = this.active;
    if (params.conversation === 'auto' && active) {
      throw invalidField(
        `Conversation already has an active response in progress: ${active}. Wait until the response is finished before creating a new one.`,
        null,
        'conversation_already_has_active_response',
      );
    }
    const held = this.host.hold(params.config, context);
    let plan: ResponsePlan;
    try {
      // Refused requests (a tool schema that cannot fit the output limit) are an error event, before any response event.
      plan = await planResponse(params.config, context, (request) => this.host.complete(request));
    } catch (error) {
      held.release();
      throw error;
    }
    const run: Running = { id: publicId('resp'), conversation: params.conversation, cancelled: false, reason: 'client_cancelled' };
    this.running.set(run.id, run);
    const base = this.presentBase(run, params);
    this.host.emit('response.created', { response: { ...base, status: 'in_progress', status_details: null, output: [], usage: null } });
    streamResponse(
      {
        id: run.id,
        config: params.config,
        context,
        beta: this.host.beta,
        emit: (type, fields) => this.host.emit(type, fields),
        onItem: (stage, entry) => {
          if (run.conversation === 'auto') this.host.onItem(stage, entry);
        },
        pause: () => this.host.pause(),
        speak: (text, speed) => this.host.speak(text, speed),
        speakable: (text, speed) => this.host.speakable(text, speed),
        cancelled: () => run.cancelled,
      },
      plan,
    )
      .then(
        async (outcome) => {
          this.running.delete(run.id);
          const usage = this.host.upstreamUsage
            ? presentUsage({ text: plan.usage.inputTokens, audio: 0 }, { text: plan.usage.outputTokens, audio: 0 })
            : presentUsage(outcome.input, outcome.produced);
          await this.host.finished(params.config, outcome, usage, plan);
          const details =
            outcome.status === 'cancelled'
              ? { type: 'cancelled', reason: run.reason }
              : outcome.status === 'incomplete'
                ? { type: 'incomplete', reason: 'max_output_tokens' }
                : null;
          this.host.emit('response.done', {
            response: {
              ...base,
              status: outcome.status,
              status_details: details,
              output: outcome.output.map((entry) => entry.item),
              usage,
            },
          });
        },
        (error: unknown) => {
          this.running.delete(run.id);
          this.host.failed(error);
        },
      )
      // A failure while finishing (charging a closed or full database) is the session's to report, never an unhandled rejection.
      .catch((error: unknown) => {
        this.running.delete(run.id);
        this.host.failed(error);
      })
      .catch(() => undefined)
      // Charged (or failed) by now, whatever the end: finished, cancelled, the socket closed.
      .finally(() => held.release());
  }

  /** Cancels the response named `responseId`, or else the one in the default conversation; an error when there is none. */
  cancel(responseId: unknown, reason: CancelReason = 'client_cancelled'): void {
    const id = responseId === undefined ? this.active : responseId;
    const run = typeof id === 'string' ? this.running.get(id) : undefined;
    if (!run) {
      const which = responseId === undefined ? 'no active response found' : `no active response with id '${String(responseId)}'`;
      throw invalidField(`Cancellation failed: ${which}.`, responseId === undefined ? null : 'response_id', 'response_cancel_not_active');
    }
    run.cancelled = true;
    run.reason = reason;
  }

  /** Stops every response (the socket closed). */
  cancelAll(): void {
    for (const run of this.running.values()) run.cancelled = true;
  }

  private presentBase(run: Running, params: ResponseParams) {
    const { config } = params;
    const conversationId = run.conversation === 'auto' ? this.host.conversationId : null;
    if (this.host.beta) {
      return {
        object: 'realtime.response',
        id: run.id,
        conversation_id: conversationId,
        modalities: config.outputModalities[0] === 'audio' ? ['audio', 'text'] : ['text'],
        voice: config.voice,
        output_audio_format: betaFormat(config.outputFormat),
        temperature: config.temperature,
        max_output_tokens: config.maxOutputTokens,
        metadata: params.metadata,
      };
    }
    return {
      object: 'realtime.response',
      id: run.id,
      conversation_id: conversationId,
      output_modalities: config.outputModalities,
      max_output_tokens: config.maxOutputTokens,
      audio: { output: { format: gaFormat(config.outputFormat), voice: config.voice } },
      metadata: params.metadata,
    };
  }
}

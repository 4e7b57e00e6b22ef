// One realtime session: reads client events, keeps the conversation and the input audio buffer, and answers with GA (or beta) server events.
import { responseBound } from './response-hold.ts';
import { publicId } from '../ids.ts';
import { isObject, type Fields } from '../protocols/fields.ts';
import type { ChatRequest, ChatResult, ToolSpec } from '../protocols/neutral/chat.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { nestsDeeperThan, tooDeepMessage } from '../server/json-depth.ts';
import type { CallContext, ChatProvider, RealtimeProvider } from '../providers/types.ts';
import { transcriptionPriceMicros } from '../services/pricing.ts';
import { decodeAudio, SESSION_RATE } from './audio-format.ts';
import { Conversation, entryBytes, type Entry } from './conversation.ts';
import { dialectName } from './event-names.ts';
import { errorEventOf } from './error-event.ts';
import { expectObject, expectString, invalidField } from './fields.ts';
import { InputAudio, msOfSamples, samplesOfMs } from './input-audio.ts';
import { truncateAudio, withAudio } from './item-audio.ts';
import { readClientItem, type ItemReader } from './items.ts';
import { REALTIME_LIMITS } from './limits.ts';
import { Responses } from './responses.ts';
import { defaultSessionConfig, responseParams, updateSessionConfig, type SessionConfig } from './session-config.ts';
import { presentSession } from './session-present.ts';

/** The client events a session understands. */
const CLIENT_EVENTS = [
  'session.update',
  'input_audio_buffer.append',
  'input_audio_buffer.commit',
  'input_audio_buffer.clear',
  'conversation.item.create',
  'conversation.item.retrieve',
  'conversation.item.truncate',
  'conversation.item.delete',
  'response.create',
  'response.cancel',
  'output_audio_buffer.clear',
];
/** Largest decoded audio in one append (15 MiB, as on the real API). */
const MAX_APPEND_BYTES = 15 * 1024 * 1024;
/** Sessions expire (on paper) an hour after they start. */
const SESSION_SECONDS = 3600;

/** Billable work of a session. */
export interface SessionCharge {
  model: string;
  inputTokens: number;
  outputTokens: number;
  amountMicros?: number;
}

export interface SessionOptions {
  model: string;
  beta: boolean;
  send(text: string): void;
  /** Throws a GatewayError when the caller may no longer spend (quota used up, token revoked or expired). */
  authorize(): void;
  charge(work: SessionCharge): void;
  /** Holds the most a response can cost (`estimate()`, asked only for a token with a quota) until it was charged; throws the quota refusal. */
  reserve(estimate: () => SessionCharge): { release(): void };
  /**
   * Set when the chat model is relayed (text turns translated to another protocol's chat): bills each response by the
   * upstream's usage of the chat call behind it, instead of `charge` with the session's estimate; resolves once kept.
   */
  chargeRelayed?(request: ChatRequest, result: ChatResult): Promise<void>;
  /** Milliseconds between streamed deltas (0: as fast as possible). */
  paceMs: number;
  /** Current time in ms. */
  now: number;
  /** The models the session talks to (its chat model, its ears and voice), and the call they are made for. */
  models: SessionModels;
  /** An unexpected failure (a bug), for the gateway's log; the client gets a `server_error` event. */
  report(error: unknown): void;
}

/** What answers a session: the chat model plans responses, the realtime model hears, speaks and checks tools. */
export interface SessionModels {
  chat: ChatProvider;
  realtime: RealtimeProvider;
  /** The session's call: its caller, headers, and a signal that aborts when the socket closes. */
  call: CallContext;
}

export class RealtimeSession {
  private readonly options: SessionOptions;
  private readonly id = publicId('sess');
  private readonly expiresAt: number;
  private config: SessionConfig;
  private readonly conversation = new Conversation();
  private readonly input = new InputAudio();
  private readonly responses: Responses;
  private readonly reader: ItemReader;
  /** The item id promised by `speech_started` for the turn in progress, and where that speech began. */
  private speech: { itemId: string; from: number } | null = null;
  private spoke = false;
  private closed = false;
  /** Client events are handled one after another, each to its end (hearing, planning) before the next. */
  private queue: Promise<void> = Promise.resolve();

  constructor(options: SessionOptions) {
    this.options = options;
    // A model without a voice here answers in text from the start (its session says so in session.created).
    const textOnly = options.models.realtime.textOnly;
    this.config = { ...defaultSessionConfig(options.model), ...(textOnly !== undefined && { outputModalities: ['text'] }) };
    this.expiresAt = Math.floor(options.now / 1000) + SESSION_SECONDS;
    const { chat, realtime, call } = options.models;
    this.reader = {
      conversation: this.conversation,
      decode: (base64, path) => this.decode(base64, path),
      hear: (samples) => realtime.hear(samples, call),
    };
    this.responses = new Responses({
      beta: options.beta,
      conversationId: publicId('conv'),
      emit: (type, fields) => this.emit(type, fields),
      onItem: (stage, entry) =>
        stage === 'added' ? this.addItem(entry, undefined, 'added') : this.emitItem('conversation.item.done', entry),
      pause: () => new Promise((resolve) => (options.paceMs > 0 ? setTimeout(resolve, options.paceMs) : setImmediate(resolve))),
      speak: (text, speed) => realtime.speak(text, speed, call),
      speakable: (text, speed) => realtime.speakable(text, speed),
      hold: (config, context) =>
        options.reserve(() => ({ model: config.model, ...responseBound(config, context, realtime.maxSpokenSeconds) })),
      complete: (request) => chat.complete(request, call),
      upstreamUsage: options.chargeRelayed !== undefined,
      finished: async (config, outcome, usage, plan) => {
        if (outcome.output.some((entry) => entry.audio && entry.audio.length > 0)) this.spoke = true;
        if (options.chargeRelayed) await options.chargeRelayed(plan.request, { choices: [plan.choice], usage: plan.usage });
        else options.charge({ model: config.model, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens });
      },
      failed: (error) => this.fail(error, null),
    });
    this.emit('session.created', { session: this.present() });
  }

  /** Handles one client message after those before it; every problem is answered with an `error` event, the socket stays open. */
  receive(text: string): void {
    this.queue = this.queue.then(() => this.handleMessage(text)).catch((error: unknown) => this.options.report(error));
  }

  private async handleMessage(text: string): Promise<void> {
    let event: Fields;
    if (nestsDeeperThan(text)) {
      this.fail(invalidField(tooDeepMessage('The client event'), null, 'invalid_json'), null);
      return;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isObject(parsed)) throw new Error('expected a JSON object');
      event = parsed;
    } catch (error) {
      this.fail(invalidField(`The client event could not be parsed as JSON: ${(error as Error).message}`, null, 'invalid_json'), null);
      return;
    }
    const eventId = typeof event['event_id'] === 'string' ? event['event_id'] : null;
    try {
      if (typeof event['type'] !== 'string')
        throw invalidField("Missing required parameter: 'type'.", 'type', 'missing_required_parameter');
      await this.handle(event['type'], event);
    } catch (error) {
      this.fail(error, eventId);
    }
  }

  /** The socket closed: stop every response and send nothing more. */
  close(): void {
    this.closed = true;
    this.responses.cancelAll();
  }

  private async handle(type: string, event: Fields): Promise<void> {
    switch (type) {
      case 'session.update': {
        const update = expectObject(event['session'], 'session');
        const next = updateSessionConfig(this.config, update, { beta: this.options.beta, spoke: this.spoke });
        this.refuseAudioOut(next, 'session');
        if (update['tools'] !== undefined) await this.checkTools(next.tools, 'session.tools');
        this.config = next;
        this.emit('session.updated', { session: this.present() });
        return;
      }
      case 'conversation.item.create': {
        const previous = event['previous_item_id'];
        const entry = await readClientItem(event['item'], 'item', this.reader);
        const bytes = entryBytes(entry);
        if (bytes > REALTIME_LIMITS.itemBytes) {
          throw invalidField(
            `Invalid 'item': the item takes ${bytes} bytes (text plus decoded audio); at most ${REALTIME_LIMITS.itemBytes} bytes per item.`,
            'item',
            'item_too_large',
          );
        }
        this.addItem(entry, previous === undefined || previous === null ? undefined : expectString(previous, 'previous_item_id'));
        return;
      }
      case 'conversation.item.retrieve': {
        const entry = this.conversation.get(event['item_id']);
        this.emit('conversation.item.retrieved', { item: withAudio(entry, this.config) });
        return;
      }
      case 'conversation.item.delete':
        this.emit('conversation.item.deleted', { item_id: this.conversation.delete(event['item_id']) });
        return;
      case 'conversation.item.truncate':
        return this.truncate(event);
      case 'input_audio_buffer.append':
        return await this.append(event);
      case 'input_audio_buffer.commit':
        return await this.commit();
      case 'input_audio_buffer.clear':
        this.input.take();
        this.input.resetSpeech();
        this.speech = null;
        this.emit('input_audio_buffer.cleared', {});
        return;
      case 'output_audio_buffer.clear':
        throw invalidField(
          'output_audio_buffer.clear is for WebRTC sessions; over a WebSocket stop playback in the client and send conversation.item.truncate.',
          'type',
          'unsupported_event',
        );
      case 'response.create': {
        const raw = event['response'] === undefined ? {} : expectObject(event['response'], 'response');
        const params = responseParams(this.config, raw, this.options.beta);
        this.refuseAudioOut(params.config, 'response');
        if (raw['tools'] !== undefined) await this.checkTools(params.config.tools, 'response.tools');
        const context: Entry[] = [];
        for (const [i, item] of (params.input ?? []).entries())
          context.push(await readClientItem(item, `response.input[${i}]`, this.reader, true));
        this.options.authorize();
        await this.responses.start(params, params.input ? context : this.conversation.all());
        return;
      }
      case 'response.cancel':
        this.responses.cancel(event['response_id']);
        return;
      default:
        throw invalidField(
          `Invalid value: '${type}'. Supported values are: ${CLIENT_EVENTS.map((name) => `'${name}'`).join(', ')}.`,
          'type',
        );
    }
  }

  /** Adds an item to the conversation and announces it (`added`, then `done` unless the item is still being produced). */
  private addItem(entry: Entry, previousId: string | undefined, stage: 'added' | 'both' = 'both'): void {
    const previous = this.conversation.insert(entry, previousId);
    this.emit('conversation.item.added', { previous_item_id: previous, item: entry.item });
    if (stage === 'both') this.emit('conversation.item.done', { previous_item_id: previous, item: entry.item });
    this.retain(entry);
  }

  /** Keeps the conversation within its limits: the oldest items go, each announced as deleted so the client's copy stays in step. */
  private retain(keep: Entry): void {
    for (const id of this.conversation.trim(keep)) this.emit('conversation.item.deleted', { item_id: id });
  }

  private emitItem(type: string, entry: Entry): void {
    if (!this.conversation.find(entry.item['id'] as string)) return;
    this.emit(type, { previous_item_id: this.conversation.previousOf(entry.item['id'] as string), item: entry.item });
    // A spoken answer has its audio only now.
    this.retain(entry);
  }

  /** Refuses spoken answers (`where`: the event's object that asked) when the model has no voice here. */
  private refuseAudioOut(config: SessionConfig, where: 'session' | 'response'): void {
    const textOnly = this.options.models.realtime.textOnly;
    if (textOnly === undefined || config.outputModalities[0] !== 'audio') return;
    throw invalidField(textOnly, `${where}.${this.options.beta ? 'modalities' : 'output_modalities'}`);
  }

  private async append(event: Fields): Promise<void> {
    const textOnly = this.options.models.realtime.textOnly;
    if (textOnly !== undefined) throw invalidField(textOnly, 'audio');
    const samples = this.decode(expectString(event['audio'], 'audio'), 'audio');
    const buffered = (this.input.length + samples.length) * Int16Array.BYTES_PER_ELEMENT;
    if (buffered > REALTIME_LIMITS.inputBufferBytes) {
      throw invalidField(
        `Error appending to the input audio buffer: it would hold ${buffered} bytes of decoded audio; at most ${REALTIME_LIMITS.inputBufferBytes} (commit or clear it first).`,
        'audio',
        'input_audio_buffer_full',
      );
    }
    const detection = this.config.turnDetection;
    for (const found of this.input.append(samples, detection)) {
      if (found.type === 'speech_started') {
        this.speech = { itemId: publicId('item'), from: found.at };
        this.emit('input_audio_buffer.speech_started', { audio_start_ms: msOfSamples(found.at), item_id: this.speech.itemId });
        const active = this.responses.active;
        if (active && detection?.interruptResponse) this.responses.cancel(active, 'turn_detected');
        continue;
      }
      const itemId = this.speech?.itemId ?? publicId('item');
      const from = this.speech?.from ?? 0;
      this.speech = null;
      this.emit('input_audio_buffer.speech_stopped', { audio_end_ms: msOfSamples(found.at), item_id: itemId });
      await this.commitSamples(this.input.take(from, found.at), itemId);
      if (detection?.createResponse && !this.responses.active) {
        this.options.authorize();
        await this.responses.start({ config: this.config, conversation: 'auto', metadata: null }, this.conversation.all());
      }
    }
  }

  private async commit(): Promise<void> {
    const length = this.input.length;
    if (length < samplesOfMs(100)) {
      throw invalidField(
        `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${((length * 1000) / SESSION_RATE).toFixed(2)}ms of audio.`,
        null,
        'input_audio_buffer_commit_empty',
      );
    }
    const itemId = this.speech?.itemId ?? publicId('item');
    this.speech = null;
    const samples = this.input.take();
    this.input.resetSpeech();
    await this.commitSamples(samples, itemId);
  }

  /** Turns committed audio into a user item; with input transcription on, transcribes it too. */
  private async commitSamples(samples: Int16Array, itemId: string): Promise<void> {
    this.emit('input_audio_buffer.committed', { previous_item_id: this.conversation.lastId, item_id: itemId });
    const heard = await this.options.models.realtime.hear(samples, this.options.models.call);
    const content = { type: 'input_audio', transcript: null as string | null };
    const entry: Entry = {
      item: { id: itemId, object: 'realtime.item', type: 'message', role: 'user', status: 'completed', content: [content] },
      turn: { role: 'user', text: heard },
      audio: samples,
      spoken: heard,
    };
    this.addItem(entry, undefined);
    const transcription = this.config.transcription;
    if (!transcription) return;
    const seconds = samples.length / SESSION_RATE;
    const work = { model: transcription.model, inputTokens: 0, outputTokens: 0, amountMicros: transcriptionPriceMicros(seconds) };
    // Held, as any transcription, before it is told: one the quota cannot pay for is an error event (the item stays, untranscribed).
    const held = this.options.reserve(() => work);
    try {
      this.transcribed(itemId, content, heard, seconds);
      this.options.charge(work);
    } finally {
      held.release();
    }
  }

  /** Tells the transcription of the committed item `itemId` (what was `heard` in `seconds` of audio). */
  private transcribed(itemId: string, content: { transcript: string | null }, heard: string, seconds: number): void {
    for (const delta of streamPieces(heard))
      this.emit('conversation.item.input_audio_transcription.delta', { item_id: itemId, content_index: 0, delta });
    content.transcript = heard;
    this.emit('conversation.item.input_audio_transcription.completed', {
      item_id: itemId,
      content_index: 0,
      transcript: heard,
      usage: { type: 'duration', seconds: Math.round(seconds * 1000) / 1000 },
    });
  }

  private truncate(event: Fields): void {
    const entry = this.conversation.get(event['item_id']);
    const endMs = truncateAudio(entry, event);
    this.emit('conversation.item.truncated', { item_id: entry.item['id'], content_index: 0, audio_end_ms: endMs });
  }

  /** The model refuses tools it could never call (an unsatisfiable parameters schema) when they are declared. */
  private checkTools(tools: readonly ToolSpec[], path: string): Promise<void> {
    return this.options.models.realtime.checkTools(tools, path, this.options.models.call);
  }

  /** Base64 audio in the input format as session samples. */
  private decode(base64: string, path: string): Int16Array {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw invalidField(`Invalid '${path}': expected base64-encoded audio.`, path);
    if ((base64.length * 3) / 4 > MAX_APPEND_BYTES) throw invalidField(`Invalid '${path}': at most 15 MiB of audio per event.`, path);
    return decodeAudio(Buffer.from(base64, 'base64'), this.config.inputFormat);
  }

  private present() {
    return presentSession(this.id, this.config, this.options.beta, this.expiresAt);
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    const name = dialectName(type, this.options.beta);
    if (name && !this.closed) this.options.send(JSON.stringify({ event_id: publicId('event'), type: name, ...fields }));
  }

  /** Sends an `error` event for a problem with a client event (or an unexpected failure). */
  private fail(error: unknown, eventId: string | null): void {
    this.emit('error', { error: errorEventOf(error, eventId, (failure) => this.options.report(failure)) });
  }
}

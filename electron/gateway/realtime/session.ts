// One simulated realtime session: reads client events, keeps the conversation and audio buffer, and answers with GA (or beta) server events.
import { publicId } from '../ids.ts';
import { isObject, type Fields } from '../protocols/fields.ts';
import { pcmSamples, rms } from '../providers/simulate/pcm.ts';
import type { ChatTurn } from '../providers/simulate/text/types.ts';
import { GatewayError } from '../services/errors.ts';
import { dialectName, dialectPartType } from './event-names.ts';
import { streamResponse } from './responder.ts';
import { defaultSessionConfig, presentSession, updateSessionConfig, type SessionConfig } from './session-config.ts';

/** Level above which appended audio counts as speech for server VAD. */
const SPEECH_LEVEL = 0.02;

export interface SessionOptions {
  model: string;
  beta: boolean;
  send(text: string): void;
  /** Called after each finished response with its token usage. */
  charge(usage: { inputTokens: number; outputTokens: number }): void;
}

export class RealtimeSession {
  private readonly options: SessionOptions;
  private readonly id = publicId('sess');
  private config: SessionConfig;
  private readonly turns: ChatTurn[] = [];
  private lastItemId: string | null = null;
  private audio: Buffer[] = [];
  private speaking = false;
  private active: { id: string; cancelled: boolean; done: Promise<void> } | undefined;

  constructor(options: SessionOptions) {
    this.options = options;
    this.config = defaultSessionConfig(options.model);
    this.emit('session.created', { session: presentSession(this.id, this.config, options.beta) });
  }

  /** Handles one client message; every problem is answered with an `error` event, the socket stays open. */
  async receive(text: string): Promise<void> {
    let event: Fields;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isObject(parsed) || typeof parsed['type'] !== 'string') throw new Error('expected a JSON object with a string "type"');
      event = parsed;
    } catch (error) {
      this.error('invalid_request_error', 'invalid_json', `The client event could not be parsed: ${(error as Error).message}`, null, null);
      return;
    }
    const eventId = typeof event['event_id'] === 'string' ? event['event_id'] : null;
    try {
      await this.handle(event['type'] as string, event);
    } catch (error) {
      const param = error instanceof GatewayError ? error.param : null;
      const code = error instanceof GatewayError && error.kind === 'invalid_request' ? 'invalid_value' : 'server_error';
      this.error('invalid_request_error', code, (error as Error).message, param, eventId);
    }
  }

  private async handle(type: string, event: Fields): Promise<void> {
    switch (type) {
      case 'session.update':
        if (!isObject(event['session'])) throw invalidField("Missing required parameter: 'session'.", 'session');
        this.config = updateSessionConfig(this.config, event['session']);
        this.emit('session.updated', { session: presentSession(this.id, this.config, this.options.beta) });
        return;
      case 'conversation.item.create':
        return this.createItem(event);
      case 'input_audio_buffer.append': {
        if (typeof event['audio'] !== 'string') throw invalidField("Missing required parameter: 'audio' (base64 PCM16).", 'audio');
        const chunk = Buffer.from(event['audio'], 'base64');
        this.audio.push(chunk);
        return this.detectSpeech(chunk);
      }
      case 'input_audio_buffer.commit':
        this.commitAudio();
        return;
      case 'input_audio_buffer.clear':
        this.audio = [];
        this.speaking = false;
        this.emit('input_audio_buffer.cleared', {});
        return;
      case 'response.create':
        if (this.active) throw invalidField('Conversation already has an active response in progress.', null);
        return this.respond(isObject(event['response']) ? event['response'] : {});
      case 'response.cancel':
        if (!this.active) throw invalidField('Cancellation failed: no active response found.', null);
        this.active.cancelled = true;
        return this.active.done;
      default:
        throw invalidField(`Invalid value: '${type}'. Unknown client event type.`, 'type');
    }
  }

  private createItem(event: Fields): void {
    const item = event['item'];
    if (!isObject(item)) throw invalidField("Missing required parameter: 'item'.", 'item');
    const id = typeof item['id'] === 'string' ? item['id'] : publicId('item');
    if (item['type'] === 'function_call_output') {
      if (typeof item['call_id'] !== 'string') throw invalidField("Missing required parameter: 'item.call_id'.", 'item.call_id');
      this.turns.push({ role: 'tool', toolCallId: item['call_id'], text: String(item['output'] ?? '') });
    } else if (item['type'] === 'message' && Array.isArray(item['content'])) {
      const role = item['role'] === 'assistant' ? 'assistant' : item['role'] === 'system' ? 'system' : 'user';
      const text = item['content']
        .map((part) => (isObject(part) ? (part['text'] ?? part['transcript'] ?? '') : ''))
        .join(' ')
        .trim();
      this.turns.push(role === 'system' ? { role: 'user', text } : { role, text });
    } else {
      throw invalidField("Invalid value for 'item.type': expected 'message' (with a content array) or 'function_call_output'.", 'item.type');
    }
    this.addItem({ ...item, id, object: 'realtime.item', status: 'completed' });
  }

  private addItem(item: Fields): void {
    this.emit('conversation.item.added', { previous_item_id: this.lastItemId, item });
    this.emit('conversation.item.done', { previous_item_id: this.lastItemId, item });
    this.lastItemId = item['id'] as string;
  }

  private detectSpeech(chunk: Buffer): Promise<void> | void {
    if (!this.config.serverVad) return;
    const loud = rms(pcmSamples(chunk)) > SPEECH_LEVEL;
    const item_id = this.lastItemId;
    if (loud && !this.speaking) {
      this.speaking = true;
      this.emit('input_audio_buffer.speech_started', { audio_start_ms: this.audioMs() - chunk.length / 48, item_id });
    } else if (!loud && this.speaking) {
      this.speaking = false;
      this.emit('input_audio_buffer.speech_stopped', { audio_end_ms: this.audioMs(), item_id });
      this.commitAudio();
      if (!this.active) return this.respond({});
    }
  }

  private commitAudio(): void {
    const bytes = Buffer.concat(this.audio);
    if (bytes.length === 0) throw invalidField('Error committing input audio buffer: the buffer is empty.', null);
    this.audio = [];
    const id = publicId('item');
    this.emit('input_audio_buffer.committed', { previous_item_id: this.lastItemId, item_id: id });
    const seconds = (bytes.length / 48_000).toFixed(1);
    this.turns.push({ role: 'user', text: `(spoken audio, ${seconds} seconds)` });
    this.addItem({ id, object: 'realtime.item', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_audio', transcript: null }] });
  }

  private audioMs(): number {
    return Math.round(this.audio.reduce((sum, chunk) => sum + chunk.length, 0) / 48);
  }

  private async respond(overrides: Fields): Promise<void> {
    const config = isObject(overrides) && Object.keys(overrides).length > 0 ? updateSessionConfig(this.config, overrides) : this.config;
    const id = publicId('resp');
    let finish!: () => void;
    const active = { id, cancelled: false, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.active = active;
    const base = { object: 'realtime.response', id, output_modalities: config.outputModalities };
    this.emit('response.created', { response: { ...base, status: 'in_progress', status_details: null, output: [], usage: null } });
    const outcome = await streamResponse(id, config, this.turns, (t) => dialectPartType(t, this.options.beta), async (type, fields) => {
      if (active.cancelled && /delta$/.test(type)) return false;
      this.emit(type, fields);
      await new Promise((resolve) => setImmediate(resolve));
      return !active.cancelled;
    });
    this.turns.push(outcome.turn);
    this.lastItemId = outcome.item['id'] as string;
    const { inputTokens, outputTokens } = outcome.usage;
    this.options.charge(outcome.usage);
    const status = outcome.cancelled ? 'cancelled' : 'completed';
    this.emit('response.done', {
      response: {
        ...base,
        status,
        status_details: outcome.cancelled ? { type: 'cancelled', reason: 'client_cancelled' } : null,
        output: [outcome.item],
        usage: {
          total_tokens: inputTokens + outputTokens,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          input_token_details: { text_tokens: inputTokens, audio_tokens: 0, cached_tokens: 0 },
          output_token_details: { text_tokens: outputTokens, audio_tokens: config.outputModalities.includes('audio') ? outputTokens : 0 },
        },
      },
    });
    this.active = undefined;
    finish();
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    const name = dialectName(type, this.options.beta);
    if (name) this.options.send(JSON.stringify({ event_id: publicId('event'), type: name, ...fields }));
  }

  private error(type: string, code: string, message: string, param: string | null, eventId: string | null): void {
    this.emit('error', { error: { type, code, message, param, event_id: eventId } });
  }
}

function invalidField(message: string, param: string | null): GatewayError {
  return new GatewayError('invalid_request', message, param);
}

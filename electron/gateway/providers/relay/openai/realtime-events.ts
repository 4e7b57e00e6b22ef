// Reads a relayed OpenAI realtime session's events as they pass: each response's usage (from `response.done`) and delivered text, and the model renamed both ways.
import type { RelayedUsage } from '../../types.ts';
import { count, record } from '../kind.ts';

/** Server events whose `delta` is text the caller got (GA and beta names): the output estimate of a response cut off before `response.done`. */
const TEXT_DELTAS = new Set([
  'response.output_text.delta',
  'response.text.delta',
  'response.output_audio_transcript.delta',
  'response.audio_transcript.delta',
  'response.function_call_arguments.delta',
]);
/** Most responses followed at once (a session runs one at a time, out-of-band ones aside); beyond it a response is billed only by its `response.done`. */
const OPEN_RESPONSES_LIMIT = 64;
/** Most delivered text kept per response for the estimate. */
const DELIVERED_TEXT_LIMIT = 1024 * 1024;

/** The session events of both directions, read and (when the channel renames the model) rewritten. */
export class RealtimeEvents {
  private readonly local: string;
  private readonly upstream: string;
  private readonly charge: (usage: RelayedUsage) => void;
  /** The text delivered so far by each response in progress, by its id. */
  private readonly open = new Map<string, string>();

  /** `local`: the caller's model name; `upstream`: the channel's; `charge` bills each response. */
  constructor(local: string, upstream: string, charge: (usage: RelayedUsage) => void) {
    this.local = local;
    this.upstream = upstream;
    this.charge = charge;
  }

  /** An upstream text frame as the client gets it (the same text unless the session's model was renamed back); its usage read on the way. */
  fromUpstream(text: string): string {
    const event = parse(text);
    if (!event) return text;
    const type = event['type'];
    const response = record(event['response']);
    const responseId = typeof event['response_id'] === 'string' ? event['response_id'] : response?.['id'];
    if (type === 'response.created' && typeof responseId === 'string' && this.open.size < OPEN_RESPONSES_LIMIT) {
      this.open.set(responseId, '');
    } else if (typeof type === 'string' && TEXT_DELTAS.has(type) && typeof responseId === 'string' && typeof event['delta'] === 'string') {
      const sofar = this.open.get(responseId);
      if (sofar !== undefined && sofar.length < DELIVERED_TEXT_LIMIT) this.open.set(responseId, sofar + event['delta']);
    } else if (type === 'response.done') {
      const deliveredText = typeof responseId === 'string' ? (this.open.get(responseId) ?? '') : '';
      if (typeof responseId === 'string') this.open.delete(responseId);
      const usage = record(response?.['usage']);
      const inputTokens = count(usage?.['input_tokens']);
      const outputTokens = count(usage?.['output_tokens']);
      this.charge({
        deliveredText,
        ...(inputTokens !== undefined && { inputTokens }),
        ...(outputTokens !== undefined && { outputTokens }),
      });
    } else if ((type === 'session.created' || type === 'session.updated') && this.renames()) {
      const session = record(event['session']);
      if (session?.['model'] === this.upstream) {
        session['model'] = this.local;
        return JSON.stringify(event);
      }
    }
    return text;
  }

  /** A client text frame as the upstream gets it: a `session.update` naming the caller's model names the channel's instead. */
  fromClient(text: string): string {
    if (!this.renames() || !text.includes('session.update')) return text;
    const event = parse(text);
    const session = record(event?.['session']);
    if (event?.['type'] !== 'session.update' || session?.['model'] !== this.local) return text;
    session['model'] = this.upstream;
    return JSON.stringify(event);
  }

  /** The session ended: each response still in progress is billed for the text it delivered (no `response.done` will come). */
  end(): void {
    const cut = [...this.open.values()];
    this.open.clear();
    for (const deliveredText of cut) this.charge({ deliveredText });
  }

  private renames(): boolean {
    return this.local !== this.upstream;
  }
}

/** `text` as a JSON object, or undefined. */
function parse(text: string): Record<string, unknown> | undefined {
  try {
    return record(JSON.parse(text));
  } catch {
    return undefined;
  }
}

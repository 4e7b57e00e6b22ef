// Reads a relayed OpenAI realtime session's events as they pass: each response's usage (from `response.done`) and delivered text, the model renamed both ways, and a response the caller may not pay for stopped.
import { TokenCounter } from '../../../protocols/neutral/token-counter.ts';
import type { RealtimeRelayRequest } from '../../types.ts';
import { count, record } from '../kind.ts';
import type { PassedWithAnswers } from '../socket-bridge.ts';

/** Server events whose `delta` is text the caller got (GA and beta names): the output estimate of a response cut off before `response.done`. */
const TEXT_DELTAS = new Set([
  'response.output_text.delta',
  'response.text.delta',
  'response.output_audio_transcript.delta',
  'response.audio_transcript.delta',
  'response.function_call_arguments.delta',
]);
/** The characters of a response id kept to know it by (the upstream's are short; a longer one is known by its start, so it costs no more). */
export const RESPONSE_ID_KEPT_CHARS = 256;
/** Most responses followed at once (a session runs one at a time, out-of-band ones aside); beyond it a response is billed only by its `response.done`. */
const OPEN_RESPONSES_LIMIT = 64;

/** The session events of both directions, read and (when the channel renames the model) rewritten. */
export class RealtimeEvents {
  private readonly local: string;
  private readonly upstream: string;
  private readonly charge: RealtimeRelayRequest['charge'];
  private readonly admit: RealtimeRelayRequest['admit'];
  private readonly started: RealtimeRelayRequest['started'];
  private readonly rejected: RealtimeRelayRequest['rejected'];
  /** The tokens of the text delivered so far by each response in progress, by its id (counted as it passes, never kept). */
  private readonly open = new Map<string, TokenCounter>();

  /**
   * `local`: the caller's model name; `upstream`: the channel's; `charge` bills each response, `admit` lets a client's
   * start, `started` (when given) each one the upstream starts, `rejected` each client event the upstream refused (see
   * RealtimeRelayRequest).
   */
  constructor(local: string, upstream: string, caller: Pick<RealtimeRelayRequest, 'charge' | 'admit' | 'started' | 'rejected'>) {
    this.local = local;
    this.upstream = upstream;
    this.charge = caller.charge;
    this.admit = caller.admit;
    this.started = caller.started;
    this.rejected = caller.rejected;
  }

  /**
   * An upstream text frame as the client gets it (the same text unless the session's model was renamed back); its usage
   * read on the way. A response the caller may not pay for (`started` refused it) passes with the refusal for the client
   * and its cancellation for the upstream.
   */
  fromUpstream(text: string): string | PassedWithAnswers {
    const event = parse(text);
    if (!event) return text;
    const type = event['type'];
    const response = record(event['response']);
    const named = typeof event['response_id'] === 'string' ? event['response_id'] : response?.['id'];
    const responseId = typeof named === 'string' ? named.slice(0, RESPONSE_ID_KEPT_CHARS) : undefined;
    if (type === 'response.created' && responseId !== undefined) {
      if (this.open.size < OPEN_RESPONSES_LIMIT) this.open.set(responseId, new TokenCounter());
      const refusal = this.started?.(responseId, response) ?? null;
      if (refusal !== null) {
        const cancel = JSON.stringify({ type: 'response.cancel', response_id: named });
        return { text, client: refusal.event, upstream: cancel, ...(refusal.close && { close: refusal.close }) };
      }
    } else if (typeof type === 'string' && TEXT_DELTAS.has(type) && responseId !== undefined && typeof event['delta'] === 'string') {
      this.open.get(responseId)?.add(event['delta']);
    } else if (type === 'response.done') {
      const deliveredTokens = responseId === undefined ? 0 : (this.open.get(responseId)?.count ?? 0);
      if (responseId !== undefined) this.open.delete(responseId);
      const usage = record(response?.['usage']);
      const inputTokens = count(usage?.['input_tokens']);
      const outputTokens = count(usage?.['output_tokens']);
      this.charge(
        {
          delivered: { tokens: deliveredTokens },
          ...(inputTokens !== undefined && { inputTokens }),
          ...(outputTokens !== undefined && { outputTokens }),
        },
        responseId,
      );
    } else if (type === 'error') {
      const refused = record(event['error'])?.['event_id'];
      if (typeof refused === 'string') this.rejected?.(refused);
    } else if ((type === 'session.created' || type === 'session.updated') && this.renames()) {
      const session = record(event['session']);
      if (session?.['model'] === this.upstream) {
        session['model'] = this.local;
        return JSON.stringify(event);
      }
    }
    return text;
  }

  /**
   * A client frame (text, or a binary one read as text) as the upstream gets it: a `session.update` naming the caller's model names the channel's instead.
   * A `response.create` the caller may not pay for is answered (`{ answer }`, the error event) instead of going upstream.
   */
  fromClient(text: string): string | { answer: string } {
    // Only the frames that can be one of the two are parsed (an audio append is large): those that spell its type, and
    // those with a JSON escape, which could spell it (`response\u002ecreate`) where the upstream would read it.
    const escaped = text.includes('\\u');
    const renames = this.renames() && (escaped || text.includes('session.update'));
    if (!renames && !escaped && !text.includes('response.create')) return text;
    const event = parse(text);
    if (event?.['type'] === 'response.create') {
      const refusal = this.admit(typeof event['event_id'] === 'string' ? event['event_id'] : null, record(event['response']));
      return refusal === null ? text : { answer: refusal };
    }
    const session = record(event?.['session']);
    if (!renames || event?.['type'] !== 'session.update' || session?.['model'] !== this.local) return text;
    session['model'] = this.upstream;
    return JSON.stringify(event);
  }

  /** The session ended: each response still in progress is billed for the text it delivered (no `response.done` will come). */
  end(): void {
    const cut = [...this.open];
    this.open.clear();
    for (const [responseId, counter] of cut) this.charge({ delivered: { tokens: counter.count } }, responseId);
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

// Asks the cassettes about a call (after fixtures, before relay): a hit answers from its cassette, a miss is simulated, relayed (and so recorded) or refused naming the closest recorded request, as --replay-miss says; each call is asked once.
import { CassetteError, type HttpCassette, type ReplayMiss } from '../../../../shared/cassette.ts';
import { GatewayError } from '../../errors.ts';
import type { CallContext, InboundProtocol, ProviderBundle, RecordedCall } from '../types.ts';
import { OncePerCall } from '../seam/once-per-call.ts';
import { replayBundle } from './bundle.ts';
import { shown, valueAt } from './closest.ts';
import type { Playback } from './playback.ts';
import type { StoreShelf } from './shelf.ts';

/** The protocols whose calls are HTTP exchanges replay answers (realtime sessions, portrait and 3D have cassettes of their own kinds). */
const HTTP_PROTOCOLS: ReadonlySet<InboundProtocol> = new Set(['openai', 'responses', 'anthropic', 'gemini', 'rerank']);

/** What replay decided for a call: answer it, refuse it (a miss under `error`, a damaged cassette), simulate it, or leave it to relay. */
export type ReplayDecision = { answer: ProviderBundle } | { refuse: GatewayError } | { simulate: true } | undefined;

export class ReplayChoice {
  private readonly decided = new OncePerCall<NonNullable<ReplayDecision>>();
  private readonly shelf: StoreShelf;
  private readonly miss: ReplayMiss;
  private readonly playback: Playback;
  constructor(shelf: StoreShelf, miss: ReplayMiss, playback: Playback) {
    this.shelf = shelf;
    this.miss = miss;
    this.playback = playback;
  }

  /** The decision for `call` (asked for `model`); `fallback` is the bundle whose catalogue and counting a replayed answer keeps. */
  decide(call: CallContext, model: string, fallback: ProviderBundle): ReplayDecision {
    return this.decided.get(call, () => this.ask(call, model, fallback));
  }

  private ask(call: CallContext, model: string, fallback: ProviderBundle): ReplayDecision {
    if (!HTTP_PROTOCOLS.has(call.protocol) || call.path === undefined) return undefined;
    const request = this.shelf.requestOf(recordedCallOfContext(call, model));
    const found = this.shelf.next(request.key, 'http');
    if (found) {
      let cassette: HttpCassette;
      try {
        cassette = found.loadSync() as HttpCassette;
      } catch (error) {
        if (error instanceof CassetteError) {
          call.principal.notes?.refused?.('replay');
          return { refuse: new GatewayError('internal', `Replay refused a damaged cassette: ${error.message}`) };
        }
        throw error;
      }
      call.noteReplay?.({
        file: found.file,
        sequence: found.sequence,
        recordedAt: cassette.recording.recordedAt,
        ...(cassette.recording.protocol !== call.protocol && { translatedFrom: cassette.recording.protocol }),
      });
      return { answer: replayBundle(cassette, found.file, call, fallback, this.playback) };
    }
    if (this.miss === 'simulate') return { simulate: true };
    if (this.miss === 'relay') return undefined;
    call.principal.notes?.refused?.('replay');
    const closest = this.shelf.closest(request);
    const near = closest
      ? (() => {
          const field = closest.differences[0];
          if (field === undefined) return ` The closest is ${closest.file} (it differs in no field: its sequence was played).`;
          const recorded = valueAt(closest.normal, field);
          const asked = valueAt(request.normal, field);
          return ` The closest is ${closest.file}; the first field that differs is ${field} (recorded ${shown(recorded)}, this call ${shown(asked)}).${hintFor(field, recorded, asked)}`;
        })()
      : ' The cassette folder is empty.';
    return { refuse: new GatewayError('not_found', `No cassette matched this call (replay, miss: error).${near}`, 'cassette') };
  }
}

/**
 * What to do about a difference clients of two protocols make by nature: an Anthropic client always states `max_tokens`,
 * which OpenAI and Gemini clients usually leave out, so a chat recorded through one misses for the other.
 */
function hintFor(field: string, recorded: unknown, asked: unknown): string {
  if (field !== 'body.maxTokens' || (recorded !== undefined && asked !== undefined)) return '';
  return ' Clients of some protocols always state a token limit and others do not: replay with --replay-ignore maxTokens to match across them.';
}

/** A call context as the recording tap saw the same request. */
function recordedCallOfContext(call: CallContext, model: string): RecordedCall {
  const body = call.body;
  const path = call.path ?? call.endpoint;
  const stream = (typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true) || path.includes(':stream');
  return {
    protocol: call.protocol,
    method: call.method ?? 'POST',
    path,
    endpoint: call.endpoint,
    model: model === '' ? null : model,
    ...(body !== undefined && { body }),
    stream,
  };
}

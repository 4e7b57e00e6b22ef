// Reads Gemini GenerateContentResponses (a whole answer, or each chunk of a stream) into neutral pieces: text, thoughts and their signatures, function calls, finish reasons, usage.
import { GatewayError } from '../../../errors.ts';
import type { ChatResult, ChatUsage, FinishReason } from '../../neutral/chat.ts';
import { foldChat, type ChatDelta } from '../../neutral/deltas.ts';
import { upstreamError } from '../../neutral/upstream-errors.ts';
import { isObject, type Fields } from '../../fields.ts';

/** Gemini's finish reasons that mean the answer was filtered. */
const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

/** What one candidate has shown so far in a stream: the number of its open reasoning part, its calls, whether its last part was a thought. */
export interface CandidateState {
  parts: number;
  inThought: boolean;
  calls: number;
}

/** Reads the chunks of one answer into deltas, keeping each candidate's state between chunks. */
export class GeminiReader {
  private readonly candidates = new Map<number, CandidateState>();
  private usage: ChatUsage = { inputTokens: 0, outputTokens: 0 };
  private readonly idPrefix: string;

  /** `idPrefix` names function calls that come without an id (`<prefix>_<n>`). */
  constructor(idPrefix = 'call') {
    this.idPrefix = idPrefix;
  }

  /** The deltas of one chunk (or whole answer); an error chunk throws. */
  *read(chunk: unknown): Generator<ChatDelta> {
    if (!isObject(chunk)) return;
    if (isObject(chunk['error'])) {
      const code = Number(chunk['error']['code']);
      throw upstreamError(Number.isInteger(code) && code >= 400 ? code : 500, chunk);
    }
    if (isObject(chunk['usageMetadata'])) this.usage = usageOf(chunk['usageMetadata']);
    const candidates = Array.isArray(chunk['candidates']) ? chunk['candidates'] : [];
    if (candidates.length === 0 && isObject(chunk['promptFeedback']) && chunk['promptFeedback']['blockReason'] !== undefined) {
      yield { type: 'finish', choice: 0, reason: 'content_filter' };
    }
    for (const [position, entry] of candidates.entries()) {
      if (!isObject(entry)) continue;
      const choice = typeof entry['index'] === 'number' ? entry['index'] : position;
      const state = this.stateOf(choice);
      const parts = isObject(entry['content']) && Array.isArray(entry['content']['parts']) ? entry['content']['parts'] : [];
      for (const part of parts) if (isObject(part)) yield* this.part(choice, state, part);
      if (typeof entry['finishReason'] === 'string')
        yield { type: 'finish', choice, reason: finishOf(entry['finishReason'], state.calls > 0) };
    }
  }

  /** The usage delta that ends the stream. */
  end(): ChatDelta {
    return { type: 'usage', ...this.usage };
  }

  private *part(choice: number, state: CandidateState, part: Fields): Generator<ChatDelta> {
    const signature = typeof part['thoughtSignature'] === 'string' ? part['thoughtSignature'] : undefined;
    if (isObject(part['functionCall'])) {
      const call = part['functionCall'];
      const id = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : `${this.idPrefix}_${choice}_${state.calls}`;
      const name = typeof call['name'] === 'string' ? call['name'] : '';
      const index = state.calls++;
      yield { type: 'tool_call', choice, call: index, id, name, ...(signature !== undefined && { thoughtSignature: signature }) };
      yield { type: 'tool_arguments', choice, call: index, fragment: JSON.stringify(call['args'] ?? {}) };
      state.inThought = false;
      return;
    }
    const text = typeof part['text'] === 'string' ? part['text'] : '';
    if (part['thought'] === true) {
      if (!state.inThought) state.parts += 1;
      state.inThought = true;
      yield { type: 'reasoning', choice, part: state.parts - 1, text, ...(signature !== undefined && { signature }), origin: 'gemini' };
      return;
    }
    state.inThought = false;
    // A signature on a text part is kept as a reasoning part of its own, so it can go back on the next turn.
    if (signature !== undefined) yield { type: 'reasoning', choice, part: state.parts++, text: '', signature, origin: 'gemini' };
    if (text !== '') yield { type: 'text', choice, text };
  }

  private stateOf(choice: number): CandidateState {
    let state = this.candidates.get(choice);
    if (!state) this.candidates.set(choice, (state = { parts: 0, inThought: false, calls: 0 }));
    return state;
  }
}

/** The neutral finish reason of a Gemini one; STOP after function calls is `tool_calls`. */
export function finishOf(reason: string, called: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return called ? 'tool_calls' : 'stop';
}

/** Gemini usage metadata: thoughts count as output, cached content as part of the prompt. */
export function usageOf(metadata: Fields): ChatUsage {
  const number = (key: string) => (typeof metadata[key] === 'number' ? (metadata[key] as number) : 0);
  const thoughts = number('thoughtsTokenCount');
  const cached = number('cachedContentTokenCount');
  return {
    inputTokens: number('promptTokenCount') + number('toolUsePromptTokenCount'),
    outputTokens: number('candidatesTokenCount') + thoughts,
    ...(cached > 0 && { cachedInputTokens: cached }),
    ...(thoughts > 0 && { reasoningTokens: thoughts }),
  };
}

/** The ChatResult of a whole answer. */
export function geminiResult(answer: unknown): ChatResult {
  if (!isObject(answer)) throw new GatewayError('upstream_failed', 'The Gemini upstream answered with something that is not an object.');
  const reader = new GeminiReader(idPrefixOf(answer));
  return foldChat([...reader.read(answer), reader.end()]);
}

/** The deltas of a stream of chunks, ending with the usage of the last chunk that had one. */
export async function* geminiDeltas(chunks: AsyncIterable<unknown>): AsyncGenerator<ChatDelta> {
  let reader: GeminiReader | undefined;
  for await (const chunk of chunks) {
    reader ??= new GeminiReader(isObject(chunk) ? idPrefixOf(chunk) : 'call');
    yield* reader.read(chunk);
  }
  yield (reader ?? new GeminiReader()).end();
}

/** Ids for calls that come without one, unique to the answer. */
export function idPrefixOf(chunk: Fields): string {
  return typeof chunk['responseId'] === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(chunk['responseId'])
    ? `call_${chunk['responseId']}`
    : 'call';
}

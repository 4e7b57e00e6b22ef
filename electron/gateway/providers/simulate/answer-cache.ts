// Simulated chat answers kept by their request: the engine is deterministic, so a request seen again (a test suite's, a load test's) is answered from here.
import type { ChatRequest, ChatResult } from '../../protocols/neutral/chat.ts';
import type { ChatDelta } from '../../protocols/neutral/deltas.ts';
import { withRenders, type KeptRenders } from '../../protocols/neutral/kept-renders.ts';
import { KeptStream } from '../../protocols/neutral/kept-stream.ts';
import { requestSize, type RequestSize } from './request-size.ts';

/** Answers kept; past it the oldest is dropped. */
export const ANSWER_CACHE_ENTRIES = 256;

/** Characters of a request's JSON (its key) up to which its answer is kept; a larger request is answered afresh each time. */
export const MAX_CACHED_REQUEST_CHARS = 4 * 1024;

/** A kept answer, its stream once it was streamed (its deltas and their renders, the same for every stream of it, so made once), and the texts codecs rendered it as. */
interface Kept {
  result: ChatResult;
  stream: KeptStream | undefined;
  renders: KeptRenders;
}

/**
 * A bounded map from a request's JSON to the answer the engine gave it; each answer handed out is a copy of its own,
 * marked with the kept answer's renders (`protocols/neutral/kept-renders.ts`), so a codec renders a kept answer once.
 */
export class AnswerCache {
  private readonly answers = new Map<string, Kept>();

  /** The answer to `request`: kept, or made by `make` (and kept when the request is small); `size`: its walk, when the caller made it already. */
  answer(
    request: ChatRequest,
    make: (request: ChatRequest) => ChatResult,
    size: RequestSize = requestSize(request, MAX_CACHED_REQUEST_CHARS),
  ): ChatResult {
    const kept = this.kept(request, make, size);
    return kept === undefined ? make(request) : withRenders(copyOf(kept.result), kept.renders);
  }

  /**
   * `answer`, with the stream of it when it is kept: the deltas it spells (`spell`; made on its first stream, then shared,
   * frozen: every stream of it reads the same ones) and the renders codecs make of them; undefined for an answer not kept,
   * whose stream makes its deltas as it goes.
   */
  streamed(
    request: ChatRequest,
    make: (request: ChatRequest) => ChatResult,
    size: RequestSize,
    spell: (result: ChatResult) => readonly ChatDelta[],
  ): { result: ChatResult; stream: KeptStream | undefined } {
    const kept = this.kept(request, make, size);
    if (kept === undefined) return { result: make(request), stream: undefined };
    kept.stream ??= new KeptStream(spell(kept.result));
    return { result: copyOf(kept.result), stream: kept.stream };
  }

  /** The kept answer to `request` (made and kept now when new), or undefined when its request is too large to keep. */
  private kept(request: ChatRequest, make: (request: ChatRequest) => ChatResult, size: RequestSize): Kept | undefined {
    const key = keyOf(request, size);
    if (key === undefined) return undefined;
    const known = this.answers.get(key);
    if (known) return known;
    // A refusal (the engine throws) keeps nothing.
    const kept = { result: copyOf(make(request)), stream: undefined, renders: new Map() };
    if (this.answers.size >= ANSWER_CACHE_ENTRIES) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, kept);
    return kept;
  }
}

/**
 * The request's JSON when it is small enough to be kept; its text and images (`size`, never more than their JSON) are
 * measured first, so a long prompt is never serialized here.
 */
function keyOf(request: ChatRequest, size: RequestSize): string | undefined {
  if (size.text + size.parts > MAX_CACHED_REQUEST_CHARS) return undefined;
  const key = JSON.stringify(request);
  return key.length <= MAX_CACHED_REQUEST_CHARS ? key : undefined;
}

/** A copy no caller's change can reach the kept answer through. */
function copyOf(result: ChatResult): ChatResult {
  return {
    choices: result.choices.map((choice) => ({
      ...choice,
      toolCalls: choice.toolCalls.map((call) => ({ ...call })),
      ...(choice.reasoning && { reasoning: choice.reasoning.map((part) => ({ ...part })) }),
    })),
    usage: { ...result.usage },
  };
}

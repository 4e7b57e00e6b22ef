// The simulated chat provider: answers decided up front by the engine (on the worker pool for a large prompt), then produced as paced deltas.
import type { ChatRequest, ChatResult } from '../../protocols/neutral/chat.ts';
import type { ChatDelta, ChatStream } from '../../protocols/neutral/deltas.ts';
import { estimateInputTokens } from '../../protocols/neutral/tokens.ts';
import { paced, paceOfHeaders } from '../../protocols/pace.ts';
import type { CallContext, ChatProvider } from '../types.ts';
import type { MediaPool } from '../../workers/media-pool.ts';
import { simulateChat } from './text/engine.ts';
import { AnswerCache } from './answer-cache.ts';
import { requestSize, type RequestSize } from './request-size.ts';
import { eachStreamPiece } from '../../protocols/neutral/stream-pieces.ts';
import { KeptSpan, type KeptStream } from '../../protocols/neutral/kept-stream.ts';

/**
 * Characters of prompt text (system, turns, tool call arguments) a simulated chat works on in-line, on the event loop;
 * a larger request is answered and counted on the worker pool, so no single prompt stalls other callers.
 */
export const MAX_INLINE_CHAT_CHARS = 256 * 1024;

export class SimulatedChat implements ChatProvider {
  private readonly workers: MediaPool | undefined;
  /** Answers to small requests worked on in-line, kept: the same request gets the same answer without the engine's work. */
  private readonly answers = new AnswerCache();
  /** `workers` absent (unit tests): every request is worked on in-line. */
  constructor(workers?: MediaPool) {
    this.workers = workers;
  }

  async complete(request: ChatRequest): Promise<ChatResult> {
    return this.answer(request);
  }

  /** The engine decides the whole answer first (a refusal is thrown before anything streams), then it is yielded piece by piece. */
  async stream(request: ChatRequest, call: CallContext): Promise<ChatStream> {
    const { result, stream } = await this.streamed(request);
    const deltas = stream?.deltas;
    const pace = paceOfHeaders(call.headers);
    return {
      inputTokens: result.usage.inputTokens,
      [Symbol.asyncIterator]: () => paced(deltas ?? resultDeltas(result), pace, call.signal),
      // Unpaced, the whole answer can be pulled at once (the writer still stops when the client leaves).
      ...(pace === undefined && { atHand: () => deltas ?? resultDeltas(result) }),
      // A kept answer's, as one span of its deltas: a codec may write it as the bytes it rendered once.
      ...(pace === undefined && stream && { keptAtHand: { kept: stream, spans: () => [new KeptSpan(0, stream.deltas.length)] } }),
    };
  }

  async countTokens(request: ChatRequest): Promise<number> {
    return !this.workers || inLine(requestSize(request, MAX_INLINE_CHAT_CHARS))
      ? estimateInputTokens(request)
      : this.workers.run('chat.tokens', request);
  }

  private answer(request: ChatRequest): ChatResult | Promise<ChatResult> {
    // One walk tells both whether the request is worked on here and whether its answer may be kept.
    const size = requestSize(request, MAX_INLINE_CHAT_CHARS);
    return !this.workers || inLine(size) ? this.answers.answer(request, simulateChat, size) : this.workers.run('chat', request);
  }

  /** `answer`, with the stream of a kept answer (its deltas made once for all its streams). */
  private async streamed(request: ChatRequest): Promise<{ result: ChatResult; stream: KeptStream | undefined }> {
    const size = requestSize(request, MAX_INLINE_CHAT_CHARS);
    if (this.workers && !inLine(size)) return { result: await this.workers.run('chat', request), stream: undefined };
    return this.answers.streamed(request, simulateChat, size, keptDeltas);
  }
}

/** The deltas `resultDeltas` spells `result` with, all at once and frozen (a kept answer's, read by every stream of it). */
function keptDeltas(result: ChatResult): readonly ChatDelta[] {
  return Object.freeze(Array.from(resultDeltas(result), (delta) => Object.freeze(delta)));
}

/** True when the text of a request of `size` (prompt, tool calls, tools and schemas) is small enough to work on in-line (MAX_INLINE_CHAT_CHARS). */
function inLine(size: RequestSize): boolean {
  return size.text <= MAX_INLINE_CHAT_CHARS;
}

/**
 * The deltas that spell `result`, choice after choice: text one token per delta (an empty text is one empty
 * delta), or each tool call's start and its arguments one token per fragment, then the finish; usage last.
 */
export function* resultDeltas(result: ChatResult): Generator<ChatDelta> {
  for (const [choice, answer] of result.choices.entries()) {
    if (answer.toolCalls.length === 0) {
      for (const text of eachStreamPiece(answer.text)) yield { type: 'text', choice, text };
    }
    for (const [call, toolCall] of answer.toolCalls.entries()) {
      yield { type: 'tool_call', choice, call, id: toolCall.id, name: toolCall.name };
      for (const fragment of eachStreamPiece(toolCall.arguments)) yield { type: 'tool_arguments', choice, call, fragment };
    }
    yield {
      type: 'finish',
      choice,
      reason: answer.finishReason,
      ...(answer.stopSequence !== undefined && { stopSequence: answer.stopSequence }),
    };
  }
  yield { type: 'usage', ...result.usage };
}

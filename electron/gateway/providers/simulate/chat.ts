// The simulated chat provider: answers decided up front by the engine, then produced as paced deltas.
import type { ChatRequest, ChatResult } from '../../protocols/neutral/chat.ts';
import type { ChatDelta, ChatStream } from '../../protocols/neutral/deltas.ts';
import { estimateInputTokens } from '../../protocols/neutral/tokens.ts';
import { paced, paceOfHeaders } from '../../protocols/pace.ts';
import type { CallContext, ChatProvider } from '../types.ts';
import { simulateChat } from './text/engine.ts';
import { streamPieces } from '../../protocols/neutral/stream-pieces.ts';

export class SimulatedChat implements ChatProvider {
  async complete(request: ChatRequest): Promise<ChatResult> {
    return simulateChat(request);
  }

  /** The engine decides the whole answer first (a refusal is thrown before anything streams), then it is yielded piece by piece. */
  async stream(request: ChatRequest, call: CallContext): Promise<ChatStream> {
    const result = simulateChat(request);
    const pace = paceOfHeaders(call.headers);
    return {
      inputTokens: result.usage.inputTokens,
      [Symbol.asyncIterator]: () => paced(resultDeltas(result), pace, call.signal),
    };
  }

  async countTokens(request: ChatRequest): Promise<number> {
    return estimateInputTokens(request);
  }
}

/**
 * The deltas that spell `result`, choice after choice: text one token per delta (an empty text is one empty
 * delta), or each tool call's start and its arguments one token per fragment, then the finish; usage last.
 */
export function* resultDeltas(result: ChatResult): Generator<ChatDelta> {
  for (const [choice, answer] of result.choices.entries()) {
    if (answer.toolCalls.length === 0) {
      for (const text of streamPieces(answer.text)) yield { type: 'text', choice, text };
    }
    for (const [call, toolCall] of answer.toolCalls.entries()) {
      yield { type: 'tool_call', choice, call, id: toolCall.id, name: toolCall.name };
      for (const fragment of streamPieces(toolCall.arguments)) yield { type: 'tool_arguments', choice, call, fragment };
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

// The neutral chat stream: the deltas a chat provider yields while its answer is produced, and their fold back into a whole answer.
import type { ChatChoice, ChatResult, FinishReason } from './chat.ts';

/**
 * One piece of a streamed answer. `choice` numbers the alternative (OpenAI `n`, Gemini `candidateCount`);
 * each choice's deltas arrive in order and end with its `finish`, choices may interleave. Tool calls start
 * with `tool_call` (id and name) and grow by `tool_arguments` fragments whose concatenation is the JSON
 * arguments text. The stream ends with one `usage` delta (a producer that cannot count sends its best
 * estimate); a stream that stops early has no `finish` for the choices it cut.
 */
export type ChatDelta =
  | { type: 'text'; choice: number; text: string }
  | { type: 'tool_call'; choice: number; call: number; id: string; name: string }
  | { type: 'tool_arguments'; choice: number; call: number; fragment: string }
  | { type: 'finish'; choice: number; reason: FinishReason; stopSequence?: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number };

/** A streamed answer: its deltas, and what is known before the first one. */
export interface ChatStream extends AsyncIterable<ChatDelta> {
  /** Input tokens when known up front (Anthropic's `message_start` reports them); absent: only the usage delta tells. */
  readonly inputTokens?: number;
}

/** Folds a whole stream back into the answer it spells (non-streaming calls over a streaming upstream, and tests). */
export async function collectChat(stream: AsyncIterable<ChatDelta>): Promise<ChatResult> {
  const choices: ChatChoice[] = [];
  const choiceAt = (index: number) => (choices[index] ??= { text: '', toolCalls: [], finishReason: 'stop' });
  let usage = { inputTokens: 0, outputTokens: 0 };
  for await (const delta of stream) {
    switch (delta.type) {
      case 'text':
        choiceAt(delta.choice).text += delta.text;
        break;
      case 'tool_call':
        choiceAt(delta.choice).toolCalls[delta.call] = { id: delta.id, name: delta.name, arguments: '' };
        break;
      case 'tool_arguments': {
        const call = choiceAt(delta.choice).toolCalls[delta.call];
        if (call) call.arguments += delta.fragment;
        break;
      }
      case 'finish': {
        const choice = choiceAt(delta.choice);
        choice.finishReason = delta.reason;
        if (delta.stopSequence !== undefined) choice.stopSequence = delta.stopSequence;
        break;
      }
      case 'usage':
        usage = { inputTokens: delta.inputTokens, outputTokens: delta.outputTokens };
        break;
    }
  }
  for (let index = 0; index < choices.length; index++) choiceAt(index);
  return { choices, usage };
}

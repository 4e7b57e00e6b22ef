// The neutral chat stream: the deltas a chat provider yields while its answer is produced, and their fold back into a whole answer.
import type { AtHand } from '../at-hand.ts';
import type { KeptSpans } from './kept-stream.ts';
import type { ChatChoice, ChatResult, ChatUsage, FinishReason, Reasoning } from './chat.ts';

/**
 * One piece of a streamed answer. `choice` numbers the alternative (OpenAI `n`, Gemini `candidateCount`);
 * each choice's deltas arrive in order and end with its `finish`, choices may interleave. Tool calls start
 * with `tool_call` (id and name) and grow by `tool_arguments` fragments whose concatenation is the JSON
 * arguments text. The stream ends with one `usage` delta (a producer that cannot count sends its best
 * estimate); a stream that stops early has no `finish` for the choices it cut.
 */
export type ChatDelta =
  | { type: 'text'; choice: number; text: string }
  /**
   * Reasoning grows by `text` pieces within one reasoning part `part` (numbered from 0 per choice); a part's
   * `signature` or opaque `data` arrives in a `reasoning` delta of its own (with empty text), after or instead of its text.
   */
  | { type: 'reasoning'; choice: number; part: number; text: string; signature?: string; data?: string; origin?: string }
  | { type: 'tool_call'; choice: number; call: number; id: string; name: string; thoughtSignature?: string }
  | { type: 'tool_arguments'; choice: number; call: number; fragment: string }
  | { type: 'finish'; choice: number; reason: FinishReason; stopSequence?: string }
  | ({ type: 'usage' } & ChatUsage);

/** A delta of text: what the codecs gather at hand into one run of events (`Steps.gather`). */
export type TextDelta = Extract<ChatDelta, { type: 'text' }>;

/** A streamed answer: its deltas, and what is known before the first one. */
export interface ChatStream extends AsyncIterable<ChatDelta> {
  /** Input tokens when known up front (Anthropic's `message_start` reports them); absent: only the usage delta tells. */
  readonly inputTokens?: number;
  /**
   * The same deltas pulled synchronously, when the whole answer is at hand and nothing paces it (a simulated answer
   * without `x-gatehouse-pace`): a consumer that can take them so skips an async step per delta. Each call starts over.
   * Frozen deltas are shared by every stream of one answer (a kept simulated answer's), so a stage may keep what it makes of them.
   */
  readonly atHand?: () => AtHand<ChatDelta>;
  /**
   * The kept answer's stream and the same deltas in spans (with `atHand` only, when its deltas are a kept answer's frozen
   * ones): a codec that renders a kept stream once (kept-stream.ts) writes each span at once, or, when it does not write
   * this stream so, takes `atHand` instead (the spans then never asked for).
   */
  readonly keptAtHand?: KeptSpans;
}

/** Folds a whole stream back into the answer it spells (non-streaming calls over a streaming upstream, and tests). */
export async function collectChat(stream: AsyncIterable<ChatDelta>): Promise<ChatResult> {
  const fold = new ChatFold();
  for await (const delta of stream) fold.add(delta);
  return fold.result();
}

/** Folds deltas that are all at hand (a whole answer read as deltas) into the answer they spell. */
export function foldChat(deltas: Iterable<ChatDelta>): ChatResult {
  const fold = new ChatFold();
  for (const delta of deltas) fold.add(delta);
  return fold.result();
}

/** The answer built up delta by delta. */
class ChatFold {
  private readonly choices: ChatChoice[] = [];
  private usage: ChatUsage = { inputTokens: 0, outputTokens: 0 };

  private choiceAt(index: number): ChatChoice {
    return (this.choices[index] ??= { text: '', toolCalls: [], finishReason: 'stop' });
  }

  add(delta: ChatDelta): void {
    switch (delta.type) {
      case 'text':
        this.choiceAt(delta.choice).text += delta.text;
        break;
      case 'reasoning': {
        const parts = (this.choiceAt(delta.choice).reasoning ??= []);
        const part: Reasoning = (parts[delta.part] ??= { text: '' });
        part.text += delta.text;
        if (delta.signature !== undefined) part.signature = delta.signature;
        if (delta.data !== undefined) part.data = delta.data;
        if (delta.origin !== undefined) part.origin = delta.origin;
        break;
      }
      case 'tool_call':
        this.choiceAt(delta.choice).toolCalls[delta.call] = {
          id: delta.id,
          name: delta.name,
          arguments: '',
          ...(delta.thoughtSignature !== undefined && { thoughtSignature: delta.thoughtSignature }),
        };
        break;
      case 'tool_arguments': {
        const call = this.choiceAt(delta.choice).toolCalls[delta.call];
        if (call) call.arguments += delta.fragment;
        break;
      }
      case 'finish': {
        const choice = this.choiceAt(delta.choice);
        choice.finishReason = delta.reason;
        if (delta.stopSequence !== undefined) choice.stopSequence = delta.stopSequence;
        break;
      }
      case 'usage': {
        const { type: _type, ...counts } = delta;
        this.usage = counts;
        break;
      }
    }
  }

  result(): ChatResult {
    for (let index = 0; index < this.choices.length; index++) this.choiceAt(index);
    return { choices: this.choices, usage: this.usage };
  }
}

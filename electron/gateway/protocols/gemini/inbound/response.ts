// Renders a neutral ChatResult as Gemini GenerateContentResponse objects: one whole answer, or the chunks of a stream.
import { parseToolArguments } from '../../turns.ts';
import type { ChatChoice, ChatResult } from '../../neutral/chat.ts';

/** A part of generated content. */
export type GeminiPart = { text: string } | { functionCall: { id: string; name: string; args: unknown } };

/** One candidate answer; `finishReason` only on a candidate's last chunk. */
export interface GeminiCandidate {
  content: { role: 'model'; parts: GeminiPart[] };
  finishReason?: 'STOP' | 'MAX_TOKENS';
  index: number;
}

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
}

/** The answer of `generateContent`, and each chunk of `streamGenerateContent`. */
export interface GenerateContentResponse {
  candidates: GeminiCandidate[];
  usageMetadata?: GeminiUsage;
  modelVersion: string;
  responseId: string;
}

/** Identity of one answer, repeated on every chunk of a stream. */
export interface GeminiAnswerMeta {
  model: string;
  responseId: string;
}

export function toGenerateContentResponse(result: ChatResult, meta: GeminiAnswerMeta): GenerateContentResponse {
  return {
    candidates: result.choices.map((choice, index) => ({
      content: { role: 'model', parts: [...textParts(choice, [choice.text]), ...callParts(choice)] },
      finishReason: finishReason(choice),
      index,
    })),
    usageMetadata: usageOf(result),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

/**
 * The chunks of a streamed answer: each candidate's text in the pieces `split` cuts it into, its function calls
 * in one part list after the text (as Gemini sends them whole), its finishReason on its last chunk, and the
 * usage on the final chunk.
 */
export function toGenerateContentChunks(
  result: ChatResult,
  meta: GeminiAnswerMeta,
  split: (text: string) => string[],
): GenerateContentResponse[] {
  const perCandidate = result.choices.map((choice) => {
    const lists = textParts(choice, split(choice.text)).map((part) => [part]);
    const calls = callParts(choice);
    if (calls.length > 0) lists.push(calls);
    return lists.length > 0 ? lists : [[{ text: '' }]];
  });
  const count = Math.max(1, ...perCandidate.map((lists) => lists.length));
  const chunks: GenerateContentResponse[] = [];
  for (let step = 0; step < count; step++) {
    const candidates: GeminiCandidate[] = [];
    perCandidate.forEach((lists, index) => {
      const parts = lists[step];
      if (parts === undefined) return;
      const last = step === lists.length - 1;
      const choice = result.choices[index]!;
      candidates.push({ content: { role: 'model', parts }, ...(last && { finishReason: finishReason(choice) }), index });
    });
    chunks.push({
      candidates,
      ...(step === count - 1 && { usageMetadata: usageOf(result) }),
      modelVersion: meta.model,
      responseId: meta.responseId,
    });
  }
  return chunks;
}

/** Gemini's token usage block; also the answer's shape for countTokens' `totalTokens`. */
export function usageOf(result: ChatResult): GeminiUsage {
  const { inputTokens, outputTokens } = result.usage;
  return { promptTokenCount: inputTokens, candidatesTokenCount: outputTokens, totalTokenCount: inputTokens + outputTokens };
}

function textParts(choice: ChatChoice, pieces: string[]): GeminiPart[] {
  if (choice.text === '' && choice.toolCalls.length > 0) return [];
  return pieces.filter((piece, index) => piece !== '' || index === 0).map((text) => ({ text }));
}

function callParts(choice: ChatChoice): GeminiPart[] {
  return choice.toolCalls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: parseToolArguments(call.arguments) } }));
}

/** Stop sequences and tool calls end with STOP, as on the real API; only the token limit is MAX_TOKENS. */
function finishReason(choice: ChatChoice): 'STOP' | 'MAX_TOKENS' {
  return choice.finishReason === 'length' ? 'MAX_TOKENS' : 'STOP';
}

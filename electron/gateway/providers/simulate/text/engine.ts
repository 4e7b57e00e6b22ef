// The simulated chat model: deterministic answers with tool calls, JSON output, stop sequences and token limits.
import { RequestSchemaValues } from './json-schema-bounded.ts';
import { checkRequestSchemas } from '../../../protocols/neutral/schema-limits.ts';
import { seededRandom, type Random } from './seed.ts';
import { paragraph, topicWords } from './sentences.ts';
import { firstPieces } from '../../../protocols/neutral/stream-pieces.ts';
import { lastUserText, toolToCall } from './tool-choice.ts';
import { countTokens, estimateInputTokens } from '../../../protocols/neutral/tokens.ts';
import type { ChatChoice, ChatRequest, ChatResult, ToolCall } from '../../../protocols/neutral/chat.ts';

/** True for the echo model: it answers with the last user message, verbatim. */
export function isEchoModel(model: string): boolean {
  return model === 'sim-echo' || model.endsWith('-echo');
}

/** Answers a chat request. The same request always gets the same answer; `seed` and each choice index vary it. */
export function simulateChat(request: ChatRequest): ChatResult {
  checkRequestSchemas(request);
  const count = Math.max(1, request.n ?? 1);
  const values = new RequestSchemaValues();
  const choices = Array.from({ length: count }, (_, index) => answer(request, index, values));
  const outputTokens = choices.reduce(
    (sum, choice) => sum + countTokens(choice.text) + choice.toolCalls.reduce((s, call) => s + countTokens(call.arguments), 0),
    0,
  );
  return { choices, usage: { inputTokens: estimateInputTokens(request), outputTokens } };
}

function answer(request: ChatRequest, index: number, values: RequestSchemaValues): ChatChoice {
  const random = seededRandom({
    model: request.model,
    system: request.system,
    turns: request.turns,
    tools: request.tools,
    toolChoice: request.toolChoice,
    format: request.format,
    seed: request.seed,
    index,
  });
  const tool = toolToCall(request);
  if (tool) {
    const call: ToolCall = {
      id: `call_${idFrom(random)}`,
      name: tool.name,
      arguments: values.toolArguments(tool.name, tool.parameters, random, request.maxTokens),
    };
    return { text: '', toolCalls: [call], finishReason: 'tool_calls' };
  }
  return limit(compose(request, random, values), request);
}

function compose(request: ChatRequest, random: Random, values: RequestSchemaValues): string {
  const userText = lastUserText(request.turns);
  if (isEchoModel(request.model)) return userText;
  const format = request.format ?? { type: 'text' };
  if (format.type === 'json_schema') return values.formatText(format.schema, random, request.maxTokens);
  const topics = topicWords(userText);
  if (format.type === 'json_object') return JSON.stringify({ answer: paragraph(random, topics), topics });
  const last = request.turns.at(-1);
  if (last?.role === 'tool') {
    const name = last.name ?? 'tool';
    const result = last.text.length > 120 ? `${last.text.slice(0, 117)}...` : last.text;
    return `The ${name} result is ${result}. ${paragraph(random, topics)}`;
  }
  return paragraph(random, topics);
}

/** Applies stop sequences (cut before the earliest) and then the output token limit. */
function limit(text: string, request: ChatRequest): ChatChoice {
  let finishReason: ChatChoice['finishReason'] = 'stop';
  let stopSequence: string | undefined;
  for (const stop of request.stop ?? []) {
    if (stop === '') continue;
    const at = text.indexOf(stop);
    if (at >= 0 && (stopSequence === undefined || at < text.indexOf(stopSequence))) stopSequence = stop;
  }
  if (stopSequence !== undefined) {
    text = text.slice(0, text.indexOf(stopSequence));
    finishReason = 'stop_sequence';
  }
  if (request.maxTokens !== undefined) {
    const cut = firstPieces(text, request.maxTokens);
    if (cut !== undefined) {
      text = cut;
      finishReason = 'length';
      stopSequence = undefined;
    }
  }
  return { text, toolCalls: [], finishReason, ...(stopSequence !== undefined && { stopSequence }) };
}

function idFrom(random: Random): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 24 }, () => alphabet[random.int(alphabet.length)]).join('');
}

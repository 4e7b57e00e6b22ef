// Token counting of a translated model by the upstream's own counting endpoint, for the wires that have one (Anthropic count_tokens, Gemini countTokens).
import { anthropicRequest } from '../../../protocols/anthropic/outbound/request.ts';
import { geminiRequest } from '../../../protocols/gemini/outbound/request.ts';
import type { ChatRequest } from '../../../protocols/neutral/chat.ts';
import type { ChatWire, PassthroughOperation } from '../../types.ts';
import { ANTHROPIC_VERSION } from './outbound-wires.ts';

/** A wire's counting endpoint: its relay operation, the body asking it, and the count read from its answer. */
export interface CountingWire {
  operation: PassthroughOperation;
  headers: Record<string, string>;
  body(request: ChatRequest, model: string): Record<string, unknown>;
  /** The count in the answer; undefined when the answer has none. */
  read(answer: unknown): number | undefined;
}

/** The fields of a Messages request that count_tokens takes (it refuses the others, such as `max_tokens`). */
const ANTHROPIC_COUNTED = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'] as const;

/** The wires whose protocol counts tokens; OpenAI's chat completions and Responses have no counting endpoint. */
export const COUNTING_WIRES: Partial<Record<ChatWire, CountingWire>> = {
  anthropic: {
    operation: 'count_tokens',
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    body(request, model) {
      const whole = anthropicRequest(request, { model, stream: false });
      return Object.fromEntries(ANTHROPIC_COUNTED.filter((field) => whole[field] !== undefined).map((field) => [field, whole[field]]));
    },
    read: (answer) => countOf(answer, 'input_tokens'),
  },
  gemini: {
    operation: 'countTokens',
    headers: {},
    // The whole request (system instruction and tools count too), as `generateContentRequest` with its model.
    body: (request, model) => ({ generateContentRequest: { model: `models/${model}`, ...geminiRequest(request) } }),
    read: (answer) => countOf(answer, 'totalTokens'),
  },
};

/** A whole non-negative number at `field` of a JSON object answer. */
function countOf(answer: unknown, field: string): number | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  const value = (answer as Record<string, unknown>)[field];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

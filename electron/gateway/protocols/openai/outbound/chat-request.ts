// Writes a neutral chat request as an OpenAI chat completions body, for upstreams that speak chat completions.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, ChatTurn, OutputFormat, ToolChoice } from '../../neutral/chat.ts';
import type { ChannelCompatName } from '../../../../../shared/channels.ts';
import { contentPartOf, reasoningContentOf } from '../chat-tables.ts';
import { fitChatBody } from './chat-compat.ts';

/** What the body is called in refusals. */
const WIRE = 'OpenAI chat completions';

/** The most stop sequences chat completions takes. */
export const MAX_STOP_SEQUENCES = 4;

/** A reasoning token budget (Anthropic thinking, Gemini thinkingBudget) read as the nearest effort level: up to these many tokens. */
const EFFORT_OF_BUDGET = [
  { upTo: 1024, effort: 'low' },
  { upTo: 8192, effort: 'medium' },
] as const;

/**
 * The chat completions body of `request` for `upstream.model`; a stream asks for the usage chunk
 * (`stream_options.include_usage`); fitted to the server's `upstream.compat` profile (chat-compat.ts). Throws a 400 for more
 * stop sequences than chat completions takes.
 */
export function chatCompletionsBody(
  request: ChatRequest,
  upstream: { model: string; stream: boolean; compat?: ChannelCompatName },
): Record<string, unknown> {
  const tools = request.tools ?? [];
  if ((request.stop?.length ?? 0) > MAX_STOP_SEQUENCES) {
    throw invalid(`'stop': ${WIRE} takes at most ${MAX_STOP_SEQUENCES} stop sequences, got ${request.stop!.length}.`, 'stop');
  }
  const effort = effortOf(request.reasoning);
  const body: Record<string, unknown> = {
    model: upstream.model,
    messages: [...(request.system !== undefined ? [{ role: 'system', content: request.system }] : []), ...request.turns.map(messageOf)],
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          ...(tool.description !== undefined && { description: tool.description }),
          parameters: tool.parameters,
        },
      })),
      ...(request.toolChoice !== undefined && { tool_choice: toolChoiceOf(request.toolChoice) }),
      ...(request.parallelToolCalls !== undefined && { parallel_tool_calls: request.parallelToolCalls }),
    }),
    ...formatOf(request.format),
    ...(request.maxTokens !== undefined && { max_completion_tokens: request.maxTokens }),
    ...(request.stop !== undefined && request.stop.length > 0 && { stop: request.stop }),
    ...(request.seed !== undefined && { seed: request.seed }),
    ...(request.n !== undefined && { n: request.n }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(effort !== undefined && { reasoning_effort: effort }),
    ...(upstream.stream && { stream: true, stream_options: { include_usage: true } }),
  };
  fitChatBody(body, upstream.compat);
  return body;
}

/** One turn as a chat message: user images as content parts, assistant reasoning text as `reasoning_content`, a tool result as a `tool` message. */
function messageOf(turn: ChatTurn): Record<string, unknown> {
  switch (turn.role) {
    case 'system':
      return { role: 'system', content: turn.text };
    case 'user':
      return { role: 'user', content: turn.parts ? turn.parts.map(contentPartOf) : turn.text };
    case 'assistant': {
      const calls = turn.toolCalls ?? [];
      const reasoning = reasoningContentOf(turn.reasoning);
      return {
        role: 'assistant',
        content: calls.length > 0 && turn.text === '' ? null : turn.text,
        ...(reasoning !== undefined && { reasoning_content: reasoning }),
        ...(calls.length > 0 && {
          tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
        }),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: turn.toolCallId, content: turn.text };
  }
}

function toolChoiceOf(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function formatOf(format: OutputFormat | undefined): Record<string, unknown> {
  switch (format?.type) {
    case 'json_object':
      return { response_format: { type: 'json_object' } };
    case 'json_schema':
      return { response_format: { type: 'json_schema', json_schema: { name: format.name ?? 'response', schema: format.schema } } };
    default:
      return {};
  }
}

/** The effort asked for, or the nearest one to a token budget (a zero budget, thinking off, asks for none). */
function effortOf(reasoning: ChatRequest['reasoning']): string | undefined {
  if (reasoning?.effort !== undefined) return reasoning.effort;
  const budget = reasoning?.budgetTokens;
  if (budget === undefined || budget <= 0) return undefined;
  return EFFORT_OF_BUDGET.find((step) => budget <= step.upTo)?.effort ?? 'high';
}

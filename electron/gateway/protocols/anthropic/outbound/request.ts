// Writes a neutral chat request as an Anthropic Messages request body: top-level system, alternating turns of content blocks, tools, thinking.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, ChatTurn, Reasoning, ToolChoice, UserPart } from '../../neutral/chat.ts';
import { joinedSystem, parseToolArguments } from '../../turns.ts';

/** `max_tokens` sent when the client gave none (Anthropic requires it). */
export const DEFAULT_MAX_TOKENS = 4096;

/** The thinking budget of each reasoning effort when the client gave no budget (`minimal`: no thinking). */
export const EFFORT_BUDGETS = { low: 1024, medium: 4096, high: 16384 } as const;

/** Anthropic's smallest thinking budget. */
const MIN_BUDGET = 1024;

type Block = Record<string, unknown>;
type Message = { role: 'user' | 'assistant'; content: Block[] };

/** The Messages body of `request` for `model`; refuses what Anthropic cannot take (more than one choice). */
export function anthropicRequest(request: ChatRequest, upstream: { model: string; stream: boolean }): Record<string, unknown> {
  if (request.n !== undefined && request.n > 1) {
    throw invalid('n: the Anthropic Messages API answers one choice per call; send n = 1', 'n');
  }
  const system = joinedSystem(request);
  const budget = thinkingBudget(request);
  const maxTokens = Math.max(request.maxTokens ?? DEFAULT_MAX_TOKENS, budget === undefined ? 1 : budget + 1);
  return {
    model: upstream.model,
    max_tokens: maxTokens,
    messages: messagesOf(request.turns),
    ...(system !== '' && { system }),
    ...(request.tools && request.tools.length > 0 && { tools: request.tools.map(toolOf) }),
    ...toolChoiceOf(request.toolChoice, request.parallelToolCalls, (request.tools?.length ?? 0) > 0),
    ...(request.format?.type === 'json_schema' && { output_config: { format: { type: 'json_schema', schema: request.format.schema } } }),
    ...(request.format?.type === 'json_object' && { output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } }),
    ...(request.stop && request.stop.length > 0 && { stop_sequences: request.stop }),
    // Anthropic refuses a temperature with thinking on; the thinking wins.
    ...(request.temperature !== undefined && budget === undefined && { temperature: Math.min(1, request.temperature) }),
    ...(request.topP !== undefined && budget === undefined && { top_p: request.topP }),
    ...(budget !== undefined && { thinking: { type: 'enabled', budget_tokens: budget } }),
    ...(upstream.stream && { stream: true }),
  };
}

/** The thinking budget asked for: the client's budget, else its effort's, else none. */
function thinkingBudget(request: ChatRequest): number | undefined {
  const asked = request.reasoning;
  if (asked?.budgetTokens !== undefined) return asked.budgetTokens <= 0 ? undefined : Math.max(MIN_BUDGET, asked.budgetTokens);
  if (asked?.effort === undefined || asked.effort === 'minimal') return undefined;
  return EFFORT_BUDGETS[asked.effort];
}

/** The conversation as alternating user and assistant messages (tool results are user content; same-role turns merge). */
function messagesOf(turns: ChatTurn[]): Message[] {
  const messages: Message[] = [];
  const push = (role: Message['role'], content: Block[]) => {
    if (content.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) {
      // Tool results must come first in a user message.
      if (role === 'user' && content[0]?.['type'] === 'tool_result') last.content.unshift(...content);
      else last.content.push(...content);
    } else messages.push({ role, content });
  };
  for (const turn of turns) {
    switch (turn.role) {
      case 'system':
        break;
      case 'user':
        push('user', userBlocks(turn.parts ?? [{ type: 'text', text: turn.text }]));
        break;
      case 'assistant':
        push('assistant', [
          ...(turn.reasoning ?? []).flatMap(thinkingBlock),
          ...(turn.text !== '' ? [{ type: 'text', text: turn.text }] : []),
          ...(turn.toolCalls ?? []).map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: parseToolArguments(call.arguments),
          })),
        ]);
        break;
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: turn.toolCallId, content: turn.text, ...(turn.isError && { is_error: true }) }]);
        break;
    }
  }
  return messages;
}

function userBlocks(parts: UserPart[]): Block[] {
  return parts.flatMap((part): Block[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    if ('url' in part) return [{ type: 'image', source: { type: 'url', url: part.url } }];
    return [{ type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } }];
  });
}

/** Reasoning Anthropic produced goes back as it came (its signature checks it); reasoning of other origins cannot be sent. */
function thinkingBlock(reasoning: Reasoning): Block[] {
  if (reasoning.origin !== 'anthropic') return [];
  if (reasoning.data !== undefined) return [{ type: 'redacted_thinking', data: reasoning.data }];
  if (reasoning.signature === undefined) return [];
  return [{ type: 'thinking', thinking: reasoning.text, signature: reasoning.signature }];
}

function toolOf(tool: NonNullable<ChatRequest['tools']>[number]): Block {
  return { name: tool.name, input_schema: tool.parameters, ...(tool.description !== undefined && { description: tool.description }) };
}

function toolChoiceOf(choice: ToolChoice | undefined, parallel: boolean | undefined, hasTools: boolean): Record<string, unknown> {
  if (!hasTools) return {};
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { tool_choice: { type: 'auto', ...single } } : {};
  if (choice === 'none') return { tool_choice: { type: 'none' } };
  if (choice === 'auto') return { tool_choice: { type: 'auto', ...single } };
  if (choice === 'required') return { tool_choice: { type: 'any', ...single } };
  return { tool_choice: { type: 'tool', name: choice.name, ...single } };
}

// Writes a neutral chat request as an OpenAI Responses API request: instructions, input items (messages, reasoning, function calls and outputs), function tools, text format, reasoning.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, ChatTurn, ToolChoice, UserPart } from '../../neutral/chat.ts';
import { MIN_OUTPUT_TOKENS } from '../inbound/request.ts';
import { urlOfMedia } from '../../neutral/media-url.ts';
import { unpackReasoning } from '../reasoning-data.ts';

type Item = Record<string, unknown>;

/** The reasoning effort a token budget stands for (the Responses API takes efforts, not budgets). */
export function effortOfBudget(budget: number): 'minimal' | 'low' | 'medium' | 'high' {
  if (budget <= 0) return 'minimal';
  if (budget <= 2048) return 'low';
  return budget <= 12288 ? 'medium' : 'high';
}

/** The Responses body of `request` for `model`; refuses what the Responses API cannot take (stop sequences, n > 1). */
export function responsesRequest(request: ChatRequest, upstream: { model: string; stream: boolean }): Record<string, unknown> {
  if (request.stop && request.stop.length > 0) {
    throw invalid('stop: the upstream speaks the OpenAI Responses API, which has no stop sequences; leave them out', 'stop');
  }
  if (request.n !== undefined && request.n > 1) throw invalid('n: the OpenAI Responses API answers one choice per call; send n = 1', 'n');
  const input = inputOf(request.turns);
  const sendsReasoning = input.some((item) => item['type'] === 'reasoning');
  const reasoning = reasoningOf(request);
  const tools = request.tools ?? [];
  return {
    model: upstream.model,
    input,
    ...(request.system !== undefined && request.system !== '' && { instructions: request.system }),
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        parameters: tool.parameters,
        strict: false,
        ...(tool.description !== undefined && { description: tool.description }),
      })),
    }),
    ...(tools.length > 0 && request.toolChoice !== undefined && { tool_choice: toolChoiceOf(request.toolChoice) }),
    ...(request.parallelToolCalls !== undefined && { parallel_tool_calls: request.parallelToolCalls }),
    ...(request.format?.type === 'json_object' && { text: { format: { type: 'json_object' } } }),
    ...(request.format?.type === 'json_schema' && {
      text: { format: { type: 'json_schema', name: request.format.name ?? 'output', schema: request.format.schema, strict: false } },
    }),
    ...(request.maxTokens !== undefined && { max_output_tokens: Math.max(MIN_OUTPUT_TOKENS, request.maxTokens) }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(reasoning !== undefined && { reasoning }),
    // The gateway keeps the conversation: nothing is left stored upstream, and reasoning comes back encrypted to be sent again.
    store: false,
    ...((reasoning !== undefined || sendsReasoning) && { include: ['reasoning.encrypted_content'] }),
    ...(upstream.stream && { stream: true }),
  };
}

function reasoningOf(request: ChatRequest): Record<string, unknown> | undefined {
  const asked = request.reasoning;
  const effort = asked?.effort ?? (asked?.budgetTokens !== undefined ? effortOfBudget(asked.budgetTokens) : undefined);
  if (effort === undefined && !request.includeReasoning) return undefined;
  return { ...(effort !== undefined && { effort }), ...(request.includeReasoning && { summary: 'auto' }) };
}

function toolChoiceOf(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/** The conversation as input items; system turns stay in place as system messages. */
function inputOf(turns: ChatTurn[]): Item[] {
  return turns.flatMap((turn): Item[] => {
    switch (turn.role) {
      case 'system':
        return [{ type: 'message', role: 'system', content: turn.text }];
      case 'user':
        return [{ type: 'message', role: 'user', content: userContent(turn.parts ?? [{ type: 'text', text: turn.text }]) }];
      case 'assistant':
        return [
          // Only reasoning this API produced can go back (encrypted, with its item id); other providers' is dropped.
          ...(turn.reasoning ?? []).flatMap((part): Item[] => {
            // Carried through another client protocol, the datum may come back in that protocol's signature field.
            const opaque = part.data ?? part.signature;
            if (part.origin !== 'openai' || opaque === undefined) return [];
            const { id, encrypted } = unpackReasoning(opaque);
            if (id === undefined) return [];
            const summary = part.text === '' ? [] : [{ type: 'summary_text', text: part.text }];
            return [{ type: 'reasoning', id, summary, encrypted_content: encrypted }];
          }),
          ...(turn.text !== '' ? [{ type: 'message', role: 'assistant', content: turn.text }] : []),
          ...(turn.toolCalls ?? []).map((call) => ({
            type: 'function_call',
            call_id: call.id,
            name: call.name,
            arguments: call.arguments,
          })),
        ];
      case 'tool':
        return [{ type: 'function_call_output', call_id: turn.toolCallId, output: turn.text }];
    }
  });
}

function userContent(parts: UserPart[]): Item[] {
  return parts.flatMap((part): Item[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'input_text', text: part.text }];
    return [{ type: 'input_image', image_url: urlOfMedia(part), detail: 'auto' }];
  });
}

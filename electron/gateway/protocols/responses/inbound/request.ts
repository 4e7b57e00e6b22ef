// Parses and validates a `POST /v1/responses` body (input items, instructions, function tools, tool_choice, text.format) and makes its neutral request.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, OutputFormat, ToolChoice, ToolSpec } from '../../neutral/chat.ts';
import {
  absent,
  asObject,
  missing,
  objectBody,
  optionalArray,
  optionalBoolean,
  optionalNumber,
  optionalString,
  requiredString,
  schemaOf,
  type Fields,
} from '../../fields.ts';
import { metadataOf } from '../../metadata.ts';
import { itemsToTurns, normalizeInput, type ResponseItem } from './items.ts';

/** A function tool as echoed back on the Response object. */
export interface FunctionTool {
  type: 'function';
  name: string;
  description: string | null;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** A validated create call; the conversation is resolved later (it may continue a stored response). */
export interface ResponsesCall {
  model: string;
  input: ResponseItem[];
  instructions: string | null;
  tools: FunctionTool[];
  /** The tools the model may call under `tool_choice` (all of them unless `allowed_tools` narrows them). */
  allowedTools: ToolSpec[];
  toolChoice: ToolChoice;
  /** `tool_choice` as given, echoed back. */
  toolChoiceEcho: unknown;
  format: OutputFormat;
  /** `text.format` as given (or the default), echoed back. */
  formatEcho: Fields;
  maxOutputTokens: number | null;
  temperature: number | null;
  topP: number | null;
  parallelToolCalls: boolean | null;
  /** `reasoning.effort` as given. */
  reasoningEffort: 'minimal' | 'low' | 'medium' | 'high' | null;
  /** `reasoning.summary` asked for: the caller wants to see reasoning. */
  reasoningSummary: boolean;
  store: boolean;
  stream: boolean;
  /** Run in the background: answered at once `queued`, polled until done (needs `store`, no `stream`). */
  background: boolean;
  previousResponseId: string | null;
  /** The Conversations API conversation the call continues and adds its turn to (`conversation`: an id or `{id}`). */
  conversationId?: string | null;
  metadata: Fields;
}

/** The Responses API refuses smaller output limits. */
export const MIN_OUTPUT_TOKENS = 16;

export function parseResponsesBody(body: unknown): ResponsesCall {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const previousResponseId = optionalString(fields, 'previous_response_id') ?? null;
  const conversationId = conversationOf(fields);
  if (conversationId !== null && previousResponseId !== null) {
    throw invalid(
      "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.",
      'conversation',
    );
  }
  if (absent(fields, 'input') && previousResponseId === null && conversationId === null) throw missing('input');
  const tools = parseTools(fields);
  const { choice, allowed } = parseToolChoice(fields, tools);
  const { format, echo } = parseFormat(fields);
  const store = optionalBoolean(fields, 'store') ?? true;
  const stream = optionalBoolean(fields, 'stream') ?? false;
  const background = optionalBoolean(fields, 'background') ?? false;
  if (background && !store) throw invalid('Background responses need store: true (they are kept to be polled).', 'background');
  if (background && stream)
    throw invalid('Streaming a background response is not simulated; poll it with GET /v1/responses/{id}.', 'stream');
  return {
    model,
    input: normalizeInput(fields['input']),
    instructions: optionalString(fields, 'instructions') ?? null,
    tools,
    allowedTools: tools
      .filter((tool) => allowed.has(tool.name))
      .map((tool) => ({
        name: tool.name,
        parameters: tool.parameters,
        ...(tool.description !== null && { description: tool.description }),
      })),
    toolChoice: choice,
    toolChoiceEcho: fields['tool_choice'] ?? 'auto',
    format,
    formatEcho: echo,
    maxOutputTokens: optionalNumber(fields, 'max_output_tokens', { integer: true, min: MIN_OUTPUT_TOKENS }) ?? null,
    temperature: optionalNumber(fields, 'temperature', { min: 0, max: 2 }) ?? null,
    topP: optionalNumber(fields, 'top_p', { min: 0, max: 1 }) ?? null,
    parallelToolCalls: optionalBoolean(fields, 'parallel_tool_calls') ?? null,
    ...reasoningOf(fields),
    store,
    stream,
    background,
    previousResponseId,
    conversationId,
    metadata: absent(fields, 'metadata') ? {} : metadataOf(fields['metadata']),
  };
}

/** The conversation id of `conversation` (a string or `{id}`), or null when absent. */
function conversationOf(fields: Fields): string | null {
  const value = fields['conversation'];
  if (value === undefined || value === null) return null;
  const id = typeof value === 'object' && !Array.isArray(value) ? (value as Fields)['id'] : value;
  if (typeof id !== 'string' || id === '')
    throw invalid("Invalid 'conversation': expected a conversation id or an object with its 'id'.", 'conversation');
  return id;
}

/** Function tools; hosted tools (web search, file search, …) are not simulated and are left out. */
function parseTools(fields: Fields): FunctionTool[] {
  const list = optionalArray(fields, 'tools') ?? [];
  return list.flatMap((entry, index) => {
    const path = `tools[${index}]`;
    const tool = asObject(entry, path);
    if (tool['type'] !== 'function') return [];
    return [
      {
        type: 'function' as const,
        name: requiredString(tool, 'name', `${path}.name`),
        description: optionalString(tool, 'description', `${path}.description`) ?? null,
        parameters: schemaOf(tool['parameters'], `${path}.parameters`),
        strict: optionalBoolean(tool, 'strict', `${path}.strict`) ?? true,
      },
    ];
  });
}

function parseToolChoice(fields: Fields, tools: FunctionTool[]): { choice: ToolChoice; allowed: Set<string> } {
  const all = new Set(tools.map((tool) => tool.name));
  const value = fields['tool_choice'];
  if (value === undefined || value === null || value === 'auto') return { choice: 'auto', allowed: all };
  if (value === 'none') return { choice: 'none', allowed: all };
  if (value === 'required') {
    if (all.size === 0) throw invalid("Invalid value for 'tool_choice': 'required' needs at least one function tool.", 'tool_choice');
    return { choice: 'required', allowed: all };
  }
  const choice = asObject(value, 'tool_choice');
  if (choice['type'] === 'function') {
    const name = requiredString(choice, 'name', 'tool_choice.name');
    if (!all.has(name)) throw invalid(`Tool choice '${name}' not found in 'tools' parameter.`, 'tool_choice.name');
    return { choice: { name }, allowed: all };
  }
  if (choice['type'] === 'allowed_tools') {
    const names = (optionalArray(choice, 'tools', 'tool_choice.tools') ?? []).map((tool, index) =>
      requiredString(asObject(tool, `tool_choice.tools[${index}]`), 'name', `tool_choice.tools[${index}].name`),
    );
    for (const name of names) {
      if (!all.has(name)) throw invalid(`Tool choice '${name}' not found in 'tools' parameter.`, 'tool_choice.tools');
    }
    const allowed = new Set(names);
    const [only] = allowed;
    if (choice['mode'] !== 'required') return { choice: 'auto', allowed };
    return { choice: allowed.size === 1 && only !== undefined ? { name: only } : 'required', allowed };
  }
  throw invalid(`Invalid value for 'tool_choice': type '${String(choice['type'])}' is not supported in simulate mode.`, 'tool_choice');
}

/** `text.format`: text (default), json_object, or json_schema with a name and a schema. */
function parseFormat(fields: Fields): { format: OutputFormat; echo: Fields } {
  const text = absent(fields, 'text') ? {} : asObject(fields['text'], 'text');
  if (absent(text, 'format')) return { format: { type: 'text' }, echo: { type: 'text' } };
  const format = asObject(text['format'], 'text.format');
  switch (format['type']) {
    case 'text':
      return { format: { type: 'text' }, echo: format };
    case 'json_object':
      return { format: { type: 'json_object' }, echo: format };
    case 'json_schema': {
      const name = requiredString(format, 'name', 'text.format.name');
      if (absent(format, 'schema')) throw missing('text.format.schema');
      const schema = asObject(format['schema'], 'text.format.schema');
      return {
        format: { type: 'json_schema', schema, name },
        echo: { type: 'json_schema', name, schema, strict: format['strict'] ?? false, description: format['description'] ?? null },
      };
    }
    default:
      throw invalid("Invalid value for 'text.format.type': expected 'text', 'json_object' or 'json_schema'.", 'text.format.type');
  }
}

/** `reasoning`: the effort asked for, and whether a summary is wanted. */
function reasoningOf(fields: Fields): Pick<ResponsesCall, 'reasoningEffort' | 'reasoningSummary'> {
  if (absent(fields, 'reasoning')) return { reasoningEffort: null, reasoningSummary: false };
  const reasoning = asObject(fields['reasoning'], 'reasoning');
  const effort = optionalString(reasoning, 'effort', 'reasoning.effort');
  const known = (['minimal', 'low', 'medium', 'high'] as const).find((name) => name === effort) ?? null;
  const summary = reasoning['summary'] ?? reasoning['generate_summary'];
  return { reasoningEffort: known, reasoningSummary: typeof summary === 'string' && summary !== 'none' };
}

/** The neutral request: instructions as system text (not inherited from earlier responses), the whole conversation as turns. */
export function chatRequestOf(call: ResponsesCall, conversation: Record<string, unknown>[]): ChatRequest {
  return {
    model: call.model,
    ...(call.instructions !== null && { system: call.instructions }),
    turns: itemsToTurns(conversation),
    ...(call.allowedTools.length > 0 && { tools: call.allowedTools }),
    toolChoice: call.toolChoice,
    format: call.format,
    ...(call.maxOutputTokens !== null && { maxTokens: call.maxOutputTokens }),
    ...(call.temperature !== null && { temperature: call.temperature }),
    ...(call.topP !== null && { topP: call.topP }),
    ...(call.parallelToolCalls !== null && { parallelToolCalls: call.parallelToolCalls }),
    ...(call.reasoningEffort !== null && { reasoning: { effort: call.reasoningEffort } }),
    ...(call.reasoningSummary && { includeReasoning: true }),
  };
}

// Parses and validates a `POST /v1/chat/completions` body into the neutral chat request.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, ChatTurn, OutputFormat, ToolCall, ToolChoice, ToolSpec, UserPart } from '../../neutral/chat.ts';
import {
  absent,
  asObject,
  isObject,
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
import { nameToolResults } from '../../turns.ts';
import { reasoningTextOf, userPartOf } from '../chat-tables.ts';

/** A validated chat call. */
export interface ChatCall {
  chat: ChatRequest;
  stream: boolean;
  includeUsage: boolean;
  /** The call used the deprecated `functions`/`function_call` fields: answer with `function_call`, not `tool_calls`. */
  legacyFunctions: boolean;
  /** `store: true`: keep the completion for the stored completions API. */
  store: boolean;
  /** `metadata`, kept with a stored completion (null when absent). */
  metadata: Record<string, string> | null;
  /** The request's messages as sent, kept with a stored completion. */
  messages: unknown[];
}

export function parseChatBody(body: unknown): ChatCall {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const messages = optionalArray(fields, 'messages');
  if (messages === undefined) throw missing('messages');
  if (messages.length === 0) throw invalid("Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages');
  const system: string[] = [];
  const turns: ChatTurn[] = [];
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    const turn = parseMessage(asObject(message, path), path);
    if (turn.role === 'system') system.push(turn.text);
    else turns.push(turn);
  });
  const tools = parseTools(fields);
  const legacyFunctions = tools.length === 0 && !absent(fields, 'functions');
  if (legacyFunctions) tools.push(...parseFunctions(fields));
  const maxTokens =
    optionalNumber(fields, 'max_completion_tokens', { integer: true, min: 1 }) ??
    optionalNumber(fields, 'max_tokens', { integer: true, min: 1 });
  const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: 128 });
  const seed = optionalNumber(fields, 'seed', { integer: true });
  const temperature = optionalNumber(fields, 'temperature', { min: 0, max: 2 });
  const topP = optionalNumber(fields, 'top_p', { min: 0, max: 1 });
  const parallelToolCalls = optionalBoolean(fields, 'parallel_tool_calls');
  const effort = reasoningEffortOf(fields);
  const stop = stopOf(fields['stop']);
  // Fields set one by one in the order they always had (a request's JSON is the simulator's answer key), not spread in.
  const chat: ChatRequest = { model, turns: nameToolResults(turns) };
  if (system.length > 0) chat.system = system.join('\n\n');
  if (tools.length > 0) {
    chat.tools = tools;
    chat.toolChoice = legacyFunctions ? parseFunctionCall(fields['function_call'], tools) : parseToolChoice(fields['tool_choice'], tools);
  }
  chat.format = parseFormat(fields['response_format']);
  if (maxTokens !== undefined) chat.maxTokens = maxTokens;
  if (stop) chat.stop = stop;
  if (seed !== undefined) chat.seed = seed;
  if (n !== undefined) chat.n = n;
  if (temperature !== undefined) chat.temperature = temperature;
  if (topP !== undefined) chat.topP = topP;
  if (parallelToolCalls !== undefined && tools.length > 0) chat.parallelToolCalls = parallelToolCalls;
  if (effort !== undefined) chat.reasoning = { effort };
  const store = optionalBoolean(fields, 'store') ?? false;
  const metadata = absent(fields, 'metadata') ? null : metadataOf(fields['metadata']);
  return { chat, ...streamFlags(fields), legacyFunctions, store, metadata, messages };
}

/** `stream` and `stream_options.include_usage` (shared by chat and legacy completions); options without a stream are a 400. */
export function streamFlags(fields: Fields): { stream: boolean; includeUsage: boolean } {
  const stream = optionalBoolean(fields, 'stream') ?? false;
  const options = fields['stream_options'];
  if (options === undefined || options === null) return { stream, includeUsage: false };
  if (!stream) throw invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  return { stream, includeUsage: asObject(options, 'stream_options')['include_usage'] === true };
}

function parseMessage(message: Fields, path: string): ChatTurn | { role: 'system'; text: string } {
  const role = requiredString(message, 'role', `${path}.role`);
  // Only assistant (with calls) and legacy function messages may come without content, as on the real API.
  if (['system', 'developer', 'user', 'tool'].includes(role) && absent(message, 'content')) throw missing(`${path}.content`);
  if (role === 'user') return userTurn(message['content'], `${path}.content`);
  const text = contentText(message['content'], `${path}.content`);
  switch (role) {
    case 'system':
    case 'developer':
      return { role: 'system', text };
    case 'assistant': {
      const calls = optionalArray(message, 'tool_calls', `${path}.tool_calls`) ?? [];
      const toolCalls: ToolCall[] = calls.map((call, i) => {
        const callPath = `${path}.tool_calls[${i}]`;
        const fields = asObject(call, callPath);
        const fn = asObject(fields['function'], `${callPath}.function`);
        return {
          id: requiredString(fields, 'id', `${callPath}.id`),
          name: requiredString(fn, 'name', `${callPath}.function.name`),
          arguments: optionalString(fn, 'arguments', `${callPath}.function.arguments`) ?? '{}',
        };
      });
      if (isObject(message['function_call'])) toolCalls.push(legacyCall(message['function_call'], `${path}.function_call`));
      const reasoning = reasoningTextOf(message);
      return {
        role: 'assistant',
        text,
        ...(toolCalls.length > 0 && { toolCalls }),
        ...(reasoning !== undefined && { reasoning: [{ text: reasoning }] }),
      };
    }
    case 'tool':
      return { role: 'tool', toolCallId: requiredString(message, 'tool_call_id', `${path}.tool_call_id`), text };
    case 'function': {
      const name = requiredString(message, 'name', `${path}.name`);
      return { role: 'tool', toolCallId: legacyCallId(name), name, text };
    }
    default:
      throw invalid(
        `Invalid value: '${role}'. Supported values are: 'system', 'developer', 'user', 'assistant', 'tool' and 'function'.`,
        `${path}.role`,
      );
  }
}

/**
 * A user turn: its text (a string, or the text parts joined by newlines) and, when it has images, all its parts in
 * order. Audio and file parts are accepted and skipped.
 */
function userTurn(content: unknown, path: string): ChatTurn {
  if (!Array.isArray(content)) return { role: 'user', text: contentText(content, path) };
  const parts = content.map((part, i) => userPartOf(part, `${path}[${i}]`)).filter((part): part is UserPart => part !== undefined);
  const text = parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((piece) => piece !== '')
    .join('\n');
  return { role: 'user', text, ...(parts.some((part) => part.type === 'image') && { parts }) };
}

/** Message content as text: a string, or the text of an array of parts (images and audio are accepted and skipped). */
function contentText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(`Invalid type for '${path}': expected a string or an array of content parts.`, path);
  return content
    .map((part, i) => {
      const fields = asObject(part, `${path}[${i}]`);
      return fields['type'] === 'text' ? requiredString(fields, 'text', `${path}[${i}].text`) : '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

function parseTools(fields: Fields): ToolSpec[] {
  const tools = optionalArray(fields, 'tools') ?? [];
  if (tools.length === 0 && !absent(fields, 'tool_choice')) {
    throw invalid("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
  }
  if (Array.isArray(fields['tools']) && tools.length === 0) {
    throw invalid("Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'tools');
  }
  return tools.map((tool, i) => {
    const path = `tools[${i}]`;
    const spec = asObject(tool, path);
    if (spec['type'] !== 'function')
      throw invalid(`Invalid value for '${path}.type': only 'function' tools are supported.`, `${path}.type`);
    return functionSpec(asObject(spec['function'], `${path}.function`), `${path}.function`);
  });
}

/** The deprecated `functions` list: function definitions without the `{type, function}` wrapper. */
function parseFunctions(fields: Fields): ToolSpec[] {
  return (optionalArray(fields, 'functions') ?? []).map((fn, i) => functionSpec(asObject(fn, `functions[${i}]`), `functions[${i}]`));
}

function functionSpec(fn: Fields, path: string): ToolSpec {
  const description = optionalString(fn, 'description', `${path}.description`);
  return {
    name: requiredString(fn, 'name', `${path}.name`),
    parameters: schemaOf(fn['parameters'], `${path}.parameters`),
    ...(description !== undefined && { description }),
  };
}

function parseToolChoice(value: unknown, tools: ToolSpec[]): ToolChoice {
  if (value === undefined || value === null) return 'auto';
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isObject(value) && value['type'] === 'function' && isObject(value['function'])) {
    return namedChoice(requiredString(value['function'], 'name', 'tool_choice.function.name'), tools, 'tool_choice');
  }
  throw invalid("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a function choice.", 'tool_choice');
}

/** The deprecated `function_call`: 'none', 'auto' or `{name}`. */
function parseFunctionCall(value: unknown, tools: ToolSpec[]): ToolChoice {
  if (value === undefined || value === null) return 'auto';
  if (value === 'auto' || value === 'none') return value;
  if (isObject(value)) return namedChoice(requiredString(value, 'name', 'function_call.name'), tools, 'function_call');
  throw invalid("Invalid value for 'function_call': expected 'none', 'auto' or {name}.", 'function_call');
}

function namedChoice(name: string, tools: ToolSpec[], param: string): ToolChoice {
  if (!tools.some((tool) => tool.name === name))
    throw invalid(`Invalid value for '${param}': no function named '${name}' in the tools.`, param);
  return { name };
}

/** A legacy assistant `function_call` as a tool call, with the id its `function` result will name. */
function legacyCall(value: Fields, path: string): ToolCall {
  const name = requiredString(value, 'name', `${path}.name`);
  return { id: legacyCallId(name), name, arguments: optionalString(value, 'arguments', `${path}.arguments`) ?? '{}' };
}

const legacyCallId = (name: string) => `function:${name}`;

function parseFormat(value: unknown): OutputFormat {
  if (value === undefined || value === null) return { type: 'text' };
  const format = asObject(value, 'response_format');
  switch (format['type']) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const spec = asObject(format['json_schema'], 'response_format.json_schema');
      const name = optionalString(spec, 'name', 'response_format.json_schema.name');
      return { type: 'json_schema', schema: schemaOf(spec['schema'], 'response_format.json_schema.schema'), ...(name && { name }) };
    }
    default:
      throw invalid("Invalid value for 'response_format.type': expected 'text', 'json_object' or 'json_schema'.", 'response_format.type');
  }
}

/** The effort levels OpenAI takes that the neutral model has no name for, read as the nearest one it has. */
const NEAREST_EFFORT = { none: 'minimal', xhigh: 'high', max: 'high' } as const;
const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

/** `reasoning_effort`: one of the neutral levels, or a level read as the nearest (`none` → minimal, `xhigh`/`max` → high). */
function reasoningEffortOf(fields: Fields): NonNullable<ChatRequest['reasoning']>['effort'] {
  const value = optionalString(fields, 'reasoning_effort');
  if (value === undefined) return undefined;
  if ((EFFORTS as readonly string[]).includes(value)) return value as (typeof EFFORTS)[number];
  if (Object.hasOwn(NEAREST_EFFORT, value)) return NEAREST_EFFORT[value as keyof typeof NEAREST_EFFORT];
  throw invalid(
    `Invalid value for 'reasoning_effort': expected one of 'none', 'minimal', 'low', 'medium', 'high', 'xhigh' or 'max'.`,
    'reasoning_effort',
  );
}

/** `stop`: a string or an array of at most 4 strings (shared by chat and legacy completions). */
export function stopOf(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length <= 4 && value.every((item) => typeof item === 'string')) return value as string[];
  throw invalid("Invalid value for 'stop': expected a string or an array of at most 4 strings.", 'stop');
}

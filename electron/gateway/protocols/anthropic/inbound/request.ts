// Translates an Anthropic Messages request body into the neutral ChatRequest, validating it as the real API does.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, ChatTurn, OutputFormat, Reasoning, ToolCall, ToolChoice, ToolSpec, UserPart } from '../../neutral/chat.ts';
import { readCarried, readToolId } from '../../neutral/carry.ts';
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
  optionalStringList,
  requiredString,
  type Fields,
} from '../../fields.ts';
import { nameToolResults } from '../../turns.ts';

/** A parsed Messages call: the neutral request and whether the caller asked for a stream. */
export interface MessagesCall {
  chat: ChatRequest;
  stream: boolean;
}

/**
 * Parses `POST /v1/messages` (and `/v1/messages/count_tokens` with `countOnly`, where `max_tokens` is not
 * required). Unknown fields are ignored, as client SDKs send newer ones freely.
 */
export function parseMessagesBody(body: unknown, options: { countOnly?: boolean } = {}): MessagesCall {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const maxTokens = optionalNumber(fields, 'max_tokens', { integer: true, min: 1 });
  if (maxTokens === undefined && !options.countOnly) throw invalid('max_tokens: Field required', 'max_tokens');
  const messages = optionalArray(fields, 'messages');
  if (messages === undefined) throw missing('messages');
  if (messages.length === 0) throw invalid('messages: at least one message is required', 'messages');
  if (!absent(fields, 'metadata')) asObject(fields['metadata'], 'metadata');

  const tools = parseTools(fields);
  const toolChoice = parseToolChoice(fields, tools);
  const system = systemText(fields['system'], 'system');
  const format = parseFormat(fields);
  const stop = optionalStringList(fields, 'stop_sequences');
  const temperature = optionalNumber(fields, 'temperature', { min: 0, max: 1 });
  const topP = optionalNumber(fields, 'top_p', { min: 0, max: 1 });
  const thinking = parseThinking(fields);
  const singleTool = !absent(fields, 'tool_choice') && asObject(fields['tool_choice'], 'tool_choice')['disable_parallel_tool_use'] === true;
  const chat: ChatRequest = {
    model,
    turns: nameToolResults(messages.flatMap((message, index) => messageTurns(message, `messages[${index}]`))),
    ...(system !== undefined && { system }),
    ...(tools.length > 0 && { tools }),
    ...(toolChoice !== undefined && { toolChoice }),
    ...(format !== undefined && { format }),
    ...(maxTokens !== undefined && { maxTokens }),
    ...(stop !== undefined && stop.length > 0 && { stop }),
    ...(temperature !== undefined && { temperature }),
    ...(topP !== undefined && { topP }),
    ...(singleTool && { parallelToolCalls: false }),
    ...(thinking !== undefined && { reasoning: { budgetTokens: thinking }, includeReasoning: true }),
  };
  return { chat, stream: optionalBoolean(fields, 'stream') ?? false };
}

/** `system` as a string or a list of text blocks. */
function systemText(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid(`Invalid type for '${path}': expected a string or text blocks.`, path);
  return value.map((block, index) => textOfBlock(block, `${path}[${index}]`)).join('\n');
}

function textOfBlock(block: unknown, path: string): string {
  const fields = asObject(block, path);
  if (fields['type'] !== 'text') throw invalid(`${path}.type: expected 'text'`, `${path}.type`);
  return requiredText(fields, path);
}

function requiredText(fields: Fields, path: string): string {
  const text = fields['text'];
  if (typeof text !== 'string') throw invalid(`${path}.text: Field required`, `${path}.text`);
  return text;
}

/** The neutral turns of one message: tool results become tool turns, the rest joins into one turn. */
function messageTurns(message: unknown, path: string): ChatTurn[] {
  const fields = asObject(message, path);
  const role = fields['role'];
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    throw invalid(`${path}.role: expected 'user' or 'assistant'`, `${path}.role`);
  }
  const content = fields['content'];
  if (typeof content === 'string') return [{ role, text: content }];
  if (!Array.isArray(content)) throw invalid(`${path}.content: expected a string or content blocks`, `${path}.content`);
  if (role === 'system') return [{ role, text: systemText(content, `${path}.content`) ?? '' }];

  const texts: string[] = [];
  const parts: UserPart[] = [];
  const toolCalls: ToolCall[] = [];
  const reasoning: Reasoning[] = [];
  const toolTurns: ChatTurn[] = [];
  content.forEach((block, index) => {
    const blockPath = `${path}.content[${index}]`;
    const item = asObject(block, blockPath);
    switch (item['type']) {
      case 'text': {
        const text = requiredText(item, blockPath);
        texts.push(text);
        parts.push({ type: 'text', text });
        break;
      }
      case 'image': {
        texts.push('[image]');
        const image = imagePart(item['source']);
        if (image) parts.push(image);
        break;
      }
      case 'document':
        texts.push(`[${item['type']}]`);
        break;
      case 'tool_use': {
        if (role !== 'assistant') throw invalid(`${blockPath}: tool_use blocks belong to assistant messages`, blockPath);
        const { id, thoughtSignature } = readToolId(requiredString(item, 'id', `${blockPath}.id`));
        toolCalls.push({
          id,
          name: requiredString(item, 'name', `${blockPath}.name`),
          arguments: JSON.stringify(item['input'] ?? {}),
          ...(thoughtSignature !== undefined && { thoughtSignature }),
        });
        break;
      }
      case 'tool_result': {
        if (role !== 'user') throw invalid(`${blockPath}: tool_result blocks belong to user messages`, blockPath);
        const isError = optionalBoolean(item, 'is_error', `${blockPath}.is_error`);
        toolTurns.push({
          role: 'tool',
          toolCallId: readToolId(requiredString(item, 'tool_use_id', `${blockPath}.tool_use_id`)).id,
          text: toolResultText(item['content'], `${blockPath}.content`),
          ...(isError && { isError }),
        });
        break;
      }
      case 'thinking':
      case 'redacted_thinking':
        if (role === 'assistant') reasoning.push(reasoningOf(item, blockPath));
        break;
      default:
        if (typeof item['type'] !== 'string') throw invalid(`${blockPath}.type: Field required`, `${blockPath}.type`);
    }
  });
  const text = texts.join('\n');
  if (role === 'assistant') {
    return [{ role, text, ...(toolCalls.length > 0 && { toolCalls }), ...(reasoning.length > 0 && { reasoning }) }];
  }
  const withImages = parts.some((part) => part.type === 'image');
  return texts.length > 0 || toolTurns.length === 0 ? [...toolTurns, { role, text, ...(withImages && { parts }) }] : toolTurns;
}

/** An image block's source as a neutral part: base64 data with its media type, or a URL; anything else (a file id) is kept as text only. */
function imagePart(source: unknown): UserPart | undefined {
  if (!isObject(source)) return undefined;
  const text = (key: string) => (typeof source[key] === 'string' && source[key] !== '' ? (source[key] as string) : undefined);
  const data = text('data');
  const mediaType = text('media_type');
  const url = text('url');
  if (source['type'] === 'base64' && data !== undefined && mediaType !== undefined) return { type: 'image', data, mediaType };
  if (source['type'] === 'url' && url !== undefined) return { type: 'image', url };
  return undefined;
}

/** A thinking block (its text and signature) or a redacted one (its data), with the origin a carried signature names. */
function reasoningOf(block: Fields, path: string): Reasoning {
  if (block['type'] === 'redacted_thinking') {
    const { value, origin } = readCarried(requiredString(block, 'data', `${path}.data`), 'anthropic');
    return { text: '', data: value, origin };
  }
  const text = typeof block['thinking'] === 'string' ? block['thinking'] : '';
  const signature = typeof block['signature'] === 'string' ? block['signature'] : '';
  if (signature === '') return { text };
  const { value, origin } = readCarried(signature, 'anthropic');
  return { text, signature: value, origin };
}

/** `thinking: {type: "enabled", budget_tokens}` → the budget; disabled or absent → undefined. */
function parseThinking(fields: Fields): number | undefined {
  if (absent(fields, 'thinking')) return undefined;
  const thinking = asObject(fields['thinking'], 'thinking');
  if (thinking['type'] !== 'enabled') return undefined;
  return optionalNumber(thinking, 'budget_tokens', { integer: true, min: 1 }, 'thinking.budget_tokens');
}

/** A tool result's content: a string, or blocks whose text parts are joined. */
function toolResultText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(`${path}: expected a string or content blocks`, path);
  return content
    .map((block, index) => {
      const item = asObject(block, `${path}[${index}]`);
      return item['type'] === 'text' ? requiredText(item, `${path}[${index}]`) : `[${String(item['type'])}]`;
    })
    .join('\n');
}

/** Client tools (name + input_schema); server tools (a `type` such as `web_search_20250305`) are not simulated. */
function parseTools(fields: Fields): ToolSpec[] {
  const list = optionalArray(fields, 'tools') ?? [];
  const tools: ToolSpec[] = [];
  list.forEach((entry, index) => {
    const path = `tools[${index}]`;
    const tool = asObject(entry, path);
    const name = requiredString(tool, 'name', `${path}.name`);
    if (!absent(tool, 'type') && tool['type'] !== 'custom') return;
    if (!isObject(tool['input_schema'])) throw invalid(`${path}.input_schema: Field required`, `${path}.input_schema`);
    const description = optionalString(tool, 'description', `${path}.description`);
    tools.push({ name, parameters: tool['input_schema'], ...(description !== undefined && { description }) });
  });
  return tools;
}

function parseToolChoice(fields: Fields, tools: ToolSpec[]): ToolChoice | undefined {
  if (absent(fields, 'tool_choice')) return undefined;
  const choice = asObject(fields['tool_choice'], 'tool_choice');
  switch (choice['type']) {
    case 'auto':
      return 'auto';
    case 'none':
      return 'none';
    case 'any':
      if (tools.length === 0) throw invalid("tool_choice.type 'any' requires tools", 'tool_choice');
      return 'required';
    case 'tool': {
      const name = requiredString(choice, 'name', 'tool_choice.name');
      if (!tools.some((tool) => tool.name === name)) {
        throw invalid(`tool_choice.name: no tool named '${name}' in tools`, 'tool_choice.name');
      }
      return { name };
    }
    default:
      throw invalid("tool_choice.type: expected 'auto', 'any', 'tool' or 'none'", 'tool_choice.type');
  }
}

/** `output_config.format` (structured outputs): a JSON schema the text must follow. */
function parseFormat(fields: Fields): OutputFormat | undefined {
  if (absent(fields, 'output_config')) return undefined;
  const config = asObject(fields['output_config'], 'output_config');
  if (absent(config, 'format')) return undefined;
  const format = asObject(config['format'], 'output_config.format');
  if (format['type'] !== 'json_schema') {
    throw invalid("output_config.format.type: expected 'json_schema'", 'output_config.format.type');
  }
  return { type: 'json_schema', schema: asObject(format['schema'], 'output_config.format.schema') };
}

// Translates a Gemini GenerateContentRequest (contents, systemInstruction, generationConfig, tools) into the neutral ChatRequest.
import { invalid } from '../../../errors.ts';
import type { ChatRequest, ChatTurn, OutputFormat, Reasoning, ToolCall, ToolChoice, ToolSpec, UserPart } from '../../neutral/chat.ts';
import { readCarried } from '../../neutral/carry.ts';
import {
  absent,
  asObject,
  isObject,
  missing,
  objectBody,
  optionalArray,
  optionalNumber,
  optionalString,
  optionalStringList,
  requiredString,
  schemaOf,
  type Fields,
} from '../../fields.ts';
import { nameToolResults } from '../../turns.ts';
import { geminiSchemaToJsonSchema } from './schema.ts';

/** Response MIME types the simulator can produce (`text/x.enum` is not simulated). */
const MIME_TYPES = ['text/plain', 'application/json'];

/** Parses a `generateContent` / `streamGenerateContent` body for `model` (taken from the path). */
export function parseGenerateContent(body: unknown, model: string): ChatRequest {
  const fields = objectBody(body);
  const contents = optionalArray(fields, 'contents');
  if (contents === undefined || contents.length === 0) throw missing('contents');
  const system = systemText(fields['systemInstruction'] ?? fields['system_instruction']);
  const tools = parseTools(fields);
  const toolChoice = parseToolConfig(fields, tools);
  const config = absent(fields, 'generationConfig') ? {} : asObject(fields['generationConfig'], 'generationConfig');
  const maxTokens = optionalNumber(config, 'maxOutputTokens', { integer: true, min: 1 }, 'generationConfig.maxOutputTokens');
  const stop = optionalStringList(config, 'stopSequences', 'generationConfig.stopSequences');
  const temperature = optionalNumber(config, 'temperature', { min: 0, max: 2 }, 'generationConfig.temperature');
  const n = optionalNumber(config, 'candidateCount', { integer: true, min: 1, max: 8 }, 'generationConfig.candidateCount');
  const seed = optionalNumber(config, 'seed', { integer: true }, 'generationConfig.seed');
  const topP = optionalNumber(config, 'topP', { min: 0, max: 1 }, 'generationConfig.topP');
  const thinking = parseThinking(config);
  const format = parseFormat(config);
  return {
    model,
    turns: contentTurns(contents),
    ...(system !== undefined && { system }),
    ...(tools.length > 0 && { tools: tools.filter((tool) => toolChoice.allowed.has(tool.name)) }),
    ...(toolChoice.choice !== undefined && { toolChoice: toolChoice.choice }),
    ...(format !== undefined && { format }),
    ...(maxTokens !== undefined && { maxTokens }),
    ...(stop !== undefined && stop.length > 0 && { stop }),
    ...(temperature !== undefined && { temperature }),
    ...(n !== undefined && { n }),
    ...(seed !== undefined && { seed }),
    ...(topP !== undefined && { topP }),
    ...thinking,
  };
}

/** `thinkingConfig`: a budget (0 turns thinking off) and whether thoughts are shown. */
function parseThinking(config: Fields): Pick<ChatRequest, 'reasoning' | 'includeReasoning'> {
  if (absent(config, 'thinkingConfig')) return {};
  const path = 'generationConfig.thinkingConfig';
  const thinking = asObject(config['thinkingConfig'], path);
  const budget = optionalNumber(thinking, 'thinkingBudget', { integer: true, min: -1 }, `${path}.thinkingBudget`);
  const level = optionalString(thinking, 'thinkingLevel', `${path}.thinkingLevel`)?.toLowerCase();
  const effort = (['minimal', 'low', 'medium', 'high'] as const).find((name) => name === level);
  const reasoning: NonNullable<ChatRequest['reasoning']> = {
    ...(budget !== undefined && budget >= 0 && { budgetTokens: budget }),
    ...(effort !== undefined && { effort }),
  };
  return {
    ...(Object.keys(reasoning).length > 0 && { reasoning }),
    ...(thinking['includeThoughts'] === true && { includeReasoning: true }),
  };
}

/** Parses a `countTokens` body: `{contents}` or `{generateContentRequest: {...}}`. */
export function parseCountTokens(body: unknown, model: string): ChatRequest {
  const fields = objectBody(body);
  if (!absent(fields, 'generateContentRequest')) {
    return parseGenerateContent(asObject(fields['generateContentRequest'], 'generateContentRequest'), model);
  }
  return parseGenerateContent(fields, model);
}

function systemText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  const content = asObject(value, 'systemInstruction');
  return partsOf(content, 'systemInstruction')
    .map((part, index) => textOf(part, `systemInstruction.parts[${index}]`))
    .filter((text) => text !== undefined)
    .join('\n');
}

function partsOf(content: Fields, path: string): Fields[] {
  const parts = optionalArray(content, 'parts', `${path}.parts`);
  if (parts === undefined || parts.length === 0) throw invalid(`* ${path}.parts: must not be empty`, `${path}.parts`);
  return parts.map((part, index) => asObject(part, `${path}.parts[${index}]`));
}

/** The text a non-call part stands for; thought parts stand for nothing. */
function textOf(part: Fields, path: string): string | undefined {
  if (part['thought'] === true) return undefined;
  if (!absent(part, 'text')) return optionalString(part, 'text', `${path}.text`);
  const data = part['inlineData'] ?? part['fileData'];
  if (isObject(data)) return `[${typeof data['mimeType'] === 'string' ? data['mimeType'] : 'file'}]`;
  return undefined;
}

/** Turns of the contents; calls without an id get one, and responses find theirs by function name. */
function contentTurns(contents: unknown[]): ChatTurn[] {
  const pending = new Map<string, string[]>();
  let counter = 0;
  const turns = contents.flatMap((entry, index): ChatTurn[] => {
    const path = `contents[${index}]`;
    const content = asObject(entry, path);
    const role = content['role'] ?? 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') {
      throw invalid(`* ${path}.role: Please use a valid role: user, model.`, `${path}.role`);
    }
    const texts: string[] = [];
    const media: UserPart[] = [];
    const calls: ToolCall[] = [];
    const reasoning: Reasoning[] = [];
    const results: ChatTurn[] = [];
    partsOf(content, path).forEach((part, partIndex) => {
      const partPath = `${path}.parts[${partIndex}]`;
      if (!absent(part, 'functionCall')) {
        const call = asObject(part['functionCall'], `${partPath}.functionCall`);
        const name = requiredString(call, 'name', `${partPath}.functionCall.name`);
        const id = optionalString(call, 'id') ?? `call_${++counter}`;
        pending.set(name, [...(pending.get(name) ?? []), id]);
        const signature = signatureOf(part);
        calls.push({ id, name, arguments: JSON.stringify(call['args'] ?? {}), ...(signature && { thoughtSignature: signature.value }) });
      } else if (!absent(part, 'functionResponse')) {
        const response = asObject(part['functionResponse'], `${partPath}.functionResponse`);
        const name = requiredString(response, 'name', `${partPath}.functionResponse.name`);
        const id = optionalString(response, 'id') ?? pending.get(name)?.shift() ?? name;
        const output = response['response'];
        const failed =
          isObject(output) && output['error'] !== undefined && output['output'] === undefined && output['result'] === undefined;
        results.push({ role: 'tool', toolCallId: id, name, text: JSON.stringify(output ?? {}), ...(failed && { isError: true }) });
      } else {
        const signature = signatureOf(part);
        if (part['thought'] === true) {
          const thought = typeof part['text'] === 'string' ? part['text'] : '';
          reasoning.push({ text: thought, ...(signature && { signature: signature.value, origin: signature.origin }) });
        } else if (signature) reasoning.push({ text: '', signature: signature.value, origin: signature.origin });
        const text = textOf(part, partPath);
        if (text !== undefined) texts.push(text);
        const image = mediaOf(part);
        if (image) media.push(image);
      }
    });
    const text = texts.join('');
    if (role === 'model') {
      return [{ role: 'assistant', text, ...(calls.length > 0 && { toolCalls: calls }), ...(reasoning.length > 0 && { reasoning }) }];
    }
    const parts: UserPart[] | undefined =
      media.length > 0 ? [...(text !== '' ? [{ type: 'text' as const, text }] : []), ...media] : undefined;
    return texts.length > 0 || results.length === 0 ? [...results, { role: 'user', text, ...(parts && { parts }) }] : results;
  });
  return nameToolResults(turns);
}

/** A part's thought signature: Gemini's own, or another provider's signature this gateway carried in it. */
function signatureOf(part: Fields): { value: string; origin: string } | undefined {
  const signature = part['thoughtSignature'] ?? part['thought_signature'];
  return typeof signature === 'string' && signature !== '' ? readCarried(signature, 'gemini') : undefined;
}

/** An inline image (base64 with its MIME type) or file data by URI, as a neutral media part. */
function mediaOf(part: Fields): UserPart | undefined {
  const inline = part['inlineData'];
  if (isObject(inline) && typeof inline['data'] === 'string' && typeof inline['mimeType'] === 'string') {
    return { type: 'image', data: inline['data'], mediaType: inline['mimeType'] };
  }
  const file = part['fileData'];
  if (isObject(file) && typeof file['fileUri'] === 'string') return { type: 'image', url: file['fileUri'] };
  return undefined;
}

/** Function declarations of every tool; other tool kinds (search, code execution) are not simulated. */
function parseTools(fields: Fields): ToolSpec[] {
  const tools = optionalArray(fields, 'tools') ?? [];
  return tools.flatMap((entry, index) => {
    const tool = asObject(entry, `tools[${index}]`);
    const declarations = optionalArray(tool, 'functionDeclarations', `tools[${index}].functionDeclarations`) ?? [];
    return declarations.map((item, itemIndex) => {
      const path = `tools[${index}].functionDeclarations[${itemIndex}]`;
      const declaration = asObject(item, path);
      const name = requiredString(declaration, 'name', `${path}.name`);
      const description = optionalString(declaration, 'description', `${path}.description`);
      const parameters = absent(declaration, 'parametersJsonSchema')
        ? geminiSchemaToJsonSchema(schemaOf(declaration['parameters'], `${path}.parameters`), `schema ${path}.parameters`)
        : asObject(declaration['parametersJsonSchema'], `${path}.parametersJsonSchema`);
      return { name, parameters, ...(description !== undefined && { description }) };
    });
  });
}

/** `toolConfig.functionCallingConfig`: the choice, and the function names the model may call. */
function parseToolConfig(fields: Fields, tools: ToolSpec[]): { choice?: ToolChoice; allowed: Set<string> } {
  const all = new Set(tools.map((tool) => tool.name));
  if (absent(fields, 'toolConfig')) return { allowed: all };
  const toolConfig = asObject(fields['toolConfig'], 'toolConfig');
  if (absent(toolConfig, 'functionCallingConfig')) return { allowed: all };
  const path = 'toolConfig.functionCallingConfig';
  const config = asObject(toolConfig['functionCallingConfig'], path);
  const names = optionalStringList(config, 'allowedFunctionNames', `${path}.allowedFunctionNames`);
  for (const name of names ?? []) {
    if (!all.has(name)) throw invalid(`* ${path}.allowedFunctionNames: unknown function '${name}'`, `${path}.allowedFunctionNames`);
  }
  const allowed = names && names.length > 0 ? new Set(names) : all;
  switch (config['mode'] ?? 'AUTO') {
    case 'NONE':
      return { choice: 'none', allowed: all };
    case 'ANY': {
      if (allowed.size === 0) throw invalid(`* ${path}.mode: ANY requires function declarations`, `${path}.mode`);
      const [only] = allowed;
      return { choice: allowed.size === 1 && only !== undefined ? { name: only } : 'required', allowed };
    }
    case 'AUTO':
    case 'VALIDATED':
    case 'MODE_UNSPECIFIED':
      return { choice: 'auto', allowed: all };
    default:
      throw invalid(`* ${path}.mode: expected AUTO, ANY, NONE or VALIDATED`, `${path}.mode`);
  }
}

/** `responseMimeType` with `responseSchema` (OpenAPI subset) or `responseJsonSchema` (JSON Schema). */
function parseFormat(config: Fields): OutputFormat | undefined {
  const mime = optionalString(config, 'responseMimeType', 'generationConfig.responseMimeType');
  if (mime !== undefined && !MIME_TYPES.includes(mime)) {
    throw invalid(
      `* GenerateContentRequest.generation_config.response_mime_type: allowed mimetypes are ${MIME_TYPES.join(', ')}.`,
      'generationConfig.responseMimeType',
    );
  }
  const jsonSchema = config['responseJsonSchema'] ?? config['_responseJsonSchema'];
  const schema = !absent(config, 'responseSchema')
    ? geminiSchemaToJsonSchema(
        asObject(config['responseSchema'], 'generationConfig.responseSchema'),
        'schema generationConfig.responseSchema',
      )
    : jsonSchema !== undefined && jsonSchema !== null
      ? // Gemini CLI's router sends OpenAPI's upper-case types here too ("OBJECT"): normalised the same way.
        geminiSchemaToJsonSchema(asObject(jsonSchema, 'generationConfig.responseJsonSchema'), 'schema generationConfig.responseJsonSchema')
      : undefined;
  if (schema !== undefined && mime !== 'application/json') {
    throw invalid(
      '* GenerateContentRequest.generation_config.response_mime_type: must be application/json when a response schema is set.',
      'generationConfig.responseMimeType',
    );
  }
  if (mime !== 'application/json') return undefined;
  return schema === undefined ? { type: 'json_object' } : { type: 'json_schema', schema };
}

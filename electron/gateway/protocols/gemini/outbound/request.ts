// Writes a neutral chat request as a Gemini GenerateContentRequest: systemInstruction, user/model contents with thought signatures on their parts, function declarations, generationConfig.
import type { ChatRequest, ChatTurn, Reasoning, ToolChoice, UserPart } from '../../neutral/chat.ts';
import { joinedSystem, parseToolArguments } from '../../turns.ts';

/** The thinking budget of each reasoning effort when the client gave no budget. */
export const EFFORT_BUDGETS = { minimal: 0, low: 1024, medium: 8192, high: 24576 } as const;

type Part = Record<string, unknown>;
type Content = { role: 'user' | 'model'; parts: Part[] };

/** The request body of `request` (the model goes in the path). */
export function geminiRequest(request: ChatRequest): Record<string, unknown> {
  const system = joinedSystem(request);
  const tools = request.tools ?? [];
  const config = generationConfig(request);
  return {
    contents: contentsOf(request.turns),
    ...(system !== '' && { systemInstruction: { parts: [{ text: system }] } }),
    ...(tools.length > 0 && {
      tools: [
        {
          functionDeclarations: tools.map((tool) => ({
            name: tool.name,
            parametersJsonSchema: tool.parameters,
            ...(tool.description !== undefined && { description: tool.description }),
          })),
        },
      ],
    }),
    ...(tools.length > 0 &&
      request.toolChoice !== undefined && { toolConfig: { functionCallingConfig: callingConfig(request.toolChoice) } }),
    ...(Object.keys(config).length > 0 && { generationConfig: config }),
  };
}

function generationConfig(request: ChatRequest): Record<string, unknown> {
  const format = request.format;
  const budget = request.reasoning?.budgetTokens ?? (request.reasoning?.effort && EFFORT_BUDGETS[request.reasoning.effort]);
  return {
    ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
    ...(request.stop && request.stop.length > 0 && { stopSequences: request.stop }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { topP: request.topP }),
    ...(request.n !== undefined && request.n > 1 && { candidateCount: request.n }),
    ...(request.seed !== undefined && { seed: request.seed }),
    ...(format !== undefined && format.type !== 'text' && { responseMimeType: 'application/json' }),
    ...(format?.type === 'json_schema' && { responseJsonSchema: format.schema }),
    ...((budget !== undefined || request.includeReasoning) && {
      thinkingConfig: {
        ...(budget !== undefined && { thinkingBudget: budget }),
        ...(request.includeReasoning && { includeThoughts: true }),
      },
    }),
  };
}

function callingConfig(choice: ToolChoice): Record<string, unknown> {
  if (choice === 'auto') return { mode: 'AUTO' };
  if (choice === 'none') return { mode: 'NONE' };
  if (choice === 'required') return { mode: 'ANY' };
  return { mode: 'ANY', allowedFunctionNames: [choice.name] };
}

/** The turns as user and model contents (tool results are user function responses; same-role turns merge). */
function contentsOf(turns: ChatTurn[]): Content[] {
  const contents: Content[] = [];
  const push = (role: Content['role'], parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const turn of turns) {
    switch (turn.role) {
      case 'system':
        break;
      case 'user':
        push('user', userParts(turn.parts ?? [{ type: 'text', text: turn.text }]));
        break;
      case 'assistant':
        push('model', modelParts(turn.text, turn.toolCalls ?? [], turn.reasoning ?? []));
        break;
      case 'tool':
        push('user', [{ functionResponse: { name: turn.name ?? turn.toolCallId, response: responseOf(turn.text, turn.isError) } }]);
        break;
    }
  }
  return contents;
}

function userParts(parts: UserPart[]): Part[] {
  return parts.flatMap((part): Part[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
    if ('url' in part) return [{ fileData: { fileUri: part.url, mimeType: mimeOfUrl(part.url) } }];
    return [{ inlineData: { mimeType: part.mediaType, data: part.data } }];
  });
}

/**
 * A model turn: its text and function calls, each carrying the thought signature Gemini gave it (a signature Gemini put on a
 * text part comes back on the text, or on the first part when the turn has no text). Thought text and other providers'
 * reasoning are not sent: Gemini needs only its signatures back.
 */
function modelParts(
  text: string,
  calls: NonNullable<Extract<ChatTurn, { role: 'assistant' }>['toolCalls']>,
  reasoning: Reasoning[],
): Part[] {
  const signature = reasoning.find((part) => part.origin === 'gemini' && part.signature !== undefined)?.signature;
  const parts: Part[] = [];
  if (text !== '') parts.push({ text, ...(signature !== undefined && { thoughtSignature: signature }) });
  calls.forEach((call, index) => {
    const own = call.thoughtSignature ?? (index === 0 && text === '' ? signature : undefined);
    parts.push({
      functionCall: { name: call.name, args: parseToolArguments(call.arguments) },
      ...(own !== undefined && { thoughtSignature: own }),
    });
  });
  return parts;
}

/** A tool's output as a function response: a JSON object as it is, other text under `result` (or `error` for a failure). */
function responseOf(text: string, isError: boolean | undefined): Record<string, unknown> {
  if (isError) return { error: text };
  const value = parseToolArguments(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) && text.trim().startsWith('{')
    ? (value as Record<string, unknown>)
    : { result: text };
}

/** The image type a URL's extension names (Gemini needs one for file data); JPEG when it names none. */
function mimeOfUrl(url: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const types: Record<string, string> = {
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    heic: 'image/heic',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
  };
  return (extension !== undefined && types[extension]) || 'image/jpeg';
}

// Responses API conversation items: normalising `input`, and turning items (input and earlier output) into neutral chat turns.
import { invalid } from '../../../errors.ts';
import type { ChatTurn, Reasoning, UserPart } from '../../neutral/chat.ts';
import { readCarried, readToolId } from '../../neutral/carry.ts';
import { mediaOfUrl } from '../../neutral/media-url.ts';
import { packReasoning } from '../reasoning-data.ts';
import { asObject, isObject, requiredString, type Fields } from '../../fields.ts';
import { nameToolResults } from '../../turns.ts';

/** A conversation item as stored: an input item of a request, or an output item of a response. */
export type ResponseItem = Fields;

/** `input` as a list of items: a string is one user message. */
export function normalizeInput(input: unknown): ResponseItem[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  if (!Array.isArray(input)) throw invalid("Invalid type for 'input': expected a string or an array of items.", 'input');
  return input.map((item, index) => {
    const fields = asObject(item, `input[${index}]`);
    return fields['type'] === undefined ? { type: 'message', ...fields } : fields;
  });
}

/** The neutral turns of a list of items; `system`/`developer` messages become system turns. */
export function itemsToTurns(items: ResponseItem[]): ChatTurn[] {
  const turns: ChatTurn[] = [];
  /** The assistant turn reasoning items opened, which the message or calls after them complete. */
  const reasoned = (): Extract<ChatTurn, { role: 'assistant' }> | undefined => {
    const last = turns.at(-1);
    return last?.role === 'assistant' && last.text === '' && !last.toolCalls ? last : undefined;
  };
  items.forEach((item, index) => {
    const path = `input[${index}]`;
    switch (item['type']) {
      case 'message': {
        const role = item['role'];
        const text = messageText(item['content'], `${path}.content`);
        if (role === 'user') {
          const parts = userParts(item['content']);
          turns.push({ role: 'user', text, ...(parts && { parts }) });
        } else if (role === 'assistant') {
          const open = reasoned();
          if (open) open.text = text;
          else turns.push({ role: 'assistant', text });
        } else if (role === 'system' || role === 'developer') turns.push({ role: 'system', text });
        else throw invalid(`Invalid value for '${path}.role': expected user, assistant, system or developer.`, `${path}.role`);
        break;
      }
      case 'function_call': {
        const { id, thoughtSignature } = readToolId(requiredString(item, 'call_id', `${path}.call_id`));
        const call = {
          id,
          name: requiredString(item, 'name', `${path}.name`),
          arguments: typeof item['arguments'] === 'string' ? item['arguments'] : '{}',
          ...(thoughtSignature !== undefined && { thoughtSignature }),
        };
        const previous = turns.at(-1);
        if (previous?.role === 'assistant') previous.toolCalls = [...(previous.toolCalls ?? []), call];
        else turns.push({ role: 'assistant', text: '', toolCalls: [call] });
        break;
      }
      case 'function_call_output':
        turns.push({
          role: 'tool',
          toolCallId: readToolId(requiredString(item, 'call_id', `${path}.call_id`)).id,
          text: messageText(item['output'], `${path}.output`),
        });
        break;
      case 'reasoning': {
        const reasoning = reasoningOf(item);
        // An empty item (no summary, nothing encrypted) carries nothing to keep.
        if (reasoning.text === '' && reasoning.data === undefined && reasoning.signature === undefined) break;
        const open = reasoned();
        if (open) open.reasoning = [...(open.reasoning ?? []), reasoning];
        else turns.push({ role: 'assistant', text: '', reasoning: [reasoning] });
        break;
      }
      default:
        throw invalid(`Input items of type '${String(item['type'])}' are not supported in simulate mode.`, `${path}.type`);
    }
  });
  return nameToolResults(turns);
}

/**
 * A reasoning item as neutral reasoning: its summary text, and its encrypted content — this API's own (with the item id), or
 * another provider's signature this gateway carried in it.
 */
function reasoningOf(item: ResponseItem): Reasoning {
  const summary = Array.isArray(item['summary']) ? item['summary'] : [];
  const text = summary.map((part) => (isObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
  const encrypted =
    typeof item['encrypted_content'] === 'string' && item['encrypted_content'] !== '' ? item['encrypted_content'] : undefined;
  if (encrypted === undefined) return { text };
  const { value, origin } = readCarried(encrypted, 'openai');
  if (origin !== 'openai') return { text, signature: value, origin };
  return { text, data: packReasoning(item['id'], value), origin };
}

/** A user message's parts when it holds images (`input_image` by URL or data URL); undefined for text only. */
function userParts(content: unknown): UserPart[] | undefined {
  if (!Array.isArray(content) || !content.some((part) => isObject(part) && part['type'] === 'input_image')) return undefined;
  return content.flatMap((part): UserPart[] => {
    if (!isObject(part)) return [];
    if (part['type'] === 'input_text' && typeof part['text'] === 'string') return [{ type: 'text', text: part['text'] }];
    if (part['type'] !== 'input_image' || typeof part['image_url'] !== 'string') return [];
    const media = mediaOfUrl(part['image_url']);
    return media ? [media] : [];
  });
}

/** Text of message content or tool output: a string, or parts whose text is joined (images and files as placeholders). */
function messageText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(`Invalid type for '${path}': expected a string or an array of parts.`, path);
  return content
    .map((part, index) => {
      if (!isObject(part)) throw invalid(`Invalid type for '${path}[${index}]': expected an object.`, `${path}[${index}]`);
      return partText(part);
    })
    .join('\n');
}

function partText(part: Fields): string {
  switch (part['type']) {
    case 'input_text':
    case 'output_text':
      return typeof part['text'] === 'string' ? part['text'] : '';
    case 'refusal':
      return typeof part['refusal'] === 'string' ? part['refusal'] : '';
    case 'input_image':
      return '[image]';
    case 'input_file':
      return '[file]';
    default:
      return typeof part['text'] === 'string' ? part['text'] : '';
  }
}

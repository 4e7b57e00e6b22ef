// Responses API conversation items: normalising `input`, and turning items (input and earlier output) into neutral chat turns.
import { invalid } from '../../../errors.ts';
import type { ChatTurn } from '../../neutral/chat.ts';
import { asObject, isObject, requiredString, type Fields } from '../../fields.ts';
import { nameToolResults } from '../../turns.ts';
import { summaryOf } from './compaction-item.ts';

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
  items.forEach((item, index) => {
    const path = `input[${index}]`;
    switch (item['type']) {
      case 'message': {
        const role = item['role'];
        const text = messageText(item['content'], `${path}.content`);
        if (role === 'user') turns.push({ role: 'user', text });
        else if (role === 'assistant') turns.push({ role: 'assistant', text });
        else if (role === 'system' || role === 'developer') turns.push({ role: 'system', text });
        else throw invalid(`Invalid value for '${path}.role': expected user, assistant, system or developer.`, `${path}.role`);
        break;
      }
      case 'function_call': {
        const call = {
          id: requiredString(item, 'call_id', `${path}.call_id`),
          name: requiredString(item, 'name', `${path}.name`),
          arguments: typeof item['arguments'] === 'string' ? item['arguments'] : '{}',
        };
        const previous = turns.at(-1);
        if (previous?.role === 'assistant') previous.toolCalls = [...(previous.toolCalls ?? []), call];
        else turns.push({ role: 'assistant', text: '', toolCalls: [call] });
        break;
      }
      case 'function_call_output':
        turns.push({
          role: 'tool',
          toolCallId: requiredString(item, 'call_id', `${path}.call_id`),
          text: messageText(item['output'], `${path}.output`),
        });
        break;
      case 'reasoning':
        break;
      case 'compaction':
        turns.push({ role: 'system', text: `Summary of the earlier conversation: ${summaryOf(item, path)}` });
        break;
      default:
        throw invalid(`Input items of type '${String(item['type'])}' are not supported in simulate mode.`, `${path}.type`);
    }
  });
  return nameToolResults(turns);
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

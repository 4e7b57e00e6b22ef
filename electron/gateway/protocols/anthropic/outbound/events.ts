// Reads an Anthropic Messages event stream into neutral deltas as each event arrives: text, tool calls with their argument fragments, thinking with its signature, the stop reason and usage.
import { GatewayError, HTTP_STATUS } from '../../../errors.ts';
import type { ChatUsage } from '../../neutral/chat.ts';
import type { ChatDelta } from '../../neutral/deltas.ts';
import { kindOfAnthropicType } from '../../error-names.ts';
import { isObject } from '../../fields.ts';
import { finishOfStop, usageOf } from './answer.ts';

/** What a content block became: a tool call (its number), a reasoning part (its number), or text. */
type Open = { kind: 'tool'; call: number } | { kind: 'reasoning'; part: number } | { kind: 'text' };

/** The deltas of a Messages stream (`message_start` … `message_stop`); an `error` event throws after the deltas before it. */
export async function* anthropicDeltas(events: AsyncIterable<unknown>): AsyncGenerator<ChatDelta> {
  const blocks = new Map<number, Open>();
  let calls = 0;
  let parts = 0;
  let usage: ChatUsage = { inputTokens: 0, outputTokens: 0 };
  let ended = false;
  for await (const event of events) {
    if (!isObject(event)) continue;
    switch (event['type']) {
      case 'message_start':
        usage = usageOf(isObject(event['message']) ? event['message']['usage'] : undefined, usage);
        break;
      case 'content_block_start': {
        const index = Number(event['index']);
        const block = isObject(event['content_block']) ? event['content_block'] : {};
        if (block['type'] === 'tool_use') {
          blocks.set(index, { kind: 'tool', call: calls });
          yield { type: 'tool_call', choice: 0, call: calls++, id: String(block['id'] ?? ''), name: String(block['name'] ?? '') };
        } else if (block['type'] === 'thinking' || block['type'] === 'redacted_thinking') {
          const part = parts++;
          blocks.set(index, { kind: 'reasoning', part });
          if (typeof block['data'] === 'string')
            yield { type: 'reasoning', choice: 0, part, text: '', data: block['data'], origin: 'anthropic' };
          else if (typeof block['thinking'] === 'string' && block['thinking'] !== '')
            yield { type: 'reasoning', choice: 0, part, text: block['thinking'], origin: 'anthropic' };
        } else {
          blocks.set(index, { kind: 'text' });
          if (typeof block['text'] === 'string' && block['text'] !== '') yield { type: 'text', choice: 0, text: block['text'] };
        }
        break;
      }
      case 'content_block_delta': {
        const open = blocks.get(Number(event['index']));
        const delta = isObject(event['delta']) ? event['delta'] : {};
        if (delta['type'] === 'text_delta' && typeof delta['text'] === 'string') yield { type: 'text', choice: 0, text: delta['text'] };
        else if (delta['type'] === 'input_json_delta' && open?.kind === 'tool' && typeof delta['partial_json'] === 'string') {
          if (delta['partial_json'] !== '') yield { type: 'tool_arguments', choice: 0, call: open.call, fragment: delta['partial_json'] };
        } else if (delta['type'] === 'thinking_delta' && open?.kind === 'reasoning' && typeof delta['thinking'] === 'string') {
          yield { type: 'reasoning', choice: 0, part: open.part, text: delta['thinking'], origin: 'anthropic' };
        } else if (delta['type'] === 'signature_delta' && open?.kind === 'reasoning' && typeof delta['signature'] === 'string') {
          yield { type: 'reasoning', choice: 0, part: open.part, text: '', signature: delta['signature'], origin: 'anthropic' };
        }
        break;
      }
      case 'message_delta': {
        usage = usageOf(event['usage'], usage);
        const delta = isObject(event['delta']) ? event['delta'] : {};
        if (delta['stop_reason'] !== undefined && delta['stop_reason'] !== null) {
          const reason = finishOfStop(delta['stop_reason']);
          const stopSequence = typeof delta['stop_sequence'] === 'string' ? delta['stop_sequence'] : undefined;
          yield { type: 'finish', choice: 0, reason, ...(reason === 'stop_sequence' && stopSequence !== undefined && { stopSequence }) };
        }
        break;
      }
      case 'message_stop':
        if (!ended) yield { type: 'usage', ...usage };
        ended = true;
        break;
      case 'error':
        throw streamError(event['error']);
    }
  }
}

/** The error an `error` event reports, with the HTTP status its type stands for. */
function streamError(error: unknown): GatewayError {
  const fields = isObject(error) ? error : {};
  const kind = kindOfAnthropicType(fields['type']);
  const message = typeof fields['message'] === 'string' ? fields['message'] : 'The Anthropic upstream reported an error mid-stream.';
  return new GatewayError(kind, message, null, HTTP_STATUS[kind]);
}

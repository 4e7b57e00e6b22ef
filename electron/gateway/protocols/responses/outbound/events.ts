// Reads a Responses API event stream into neutral deltas as each event arrives: reasoning summaries and their encrypted content, output text, function calls with argument deltas, the end with usage.
import { GatewayError } from '../../../errors.ts';
import type { ChatDelta } from '../../neutral/deltas.ts';
import { upstreamError } from '../../neutral/upstream-errors.ts';
import { isObject } from '../../fields.ts';
import { failureOf, finishOfResponse, reasoningOfItem, usageOfResponse } from './answer.ts';

/** What an output item (by its output_index) became: a tool call (its number) or a reasoning part (its number). */
type Slot = { kind: 'call'; call: number } | { kind: 'reasoning'; part: number; summarized: boolean } | { kind: 'other' };

/** The deltas of a Responses stream; `response.failed` and `error` events throw after the deltas before them. */
export async function* responsesDeltas(events: AsyncIterable<unknown>): AsyncGenerator<ChatDelta> {
  const slots = new Map<number, Slot>();
  let calls = 0;
  let parts = 0;
  for await (const event of events) {
    if (!isObject(event)) continue;
    const index = Number(event['output_index']);
    switch (event['type']) {
      case 'response.output_item.added': {
        const item = isObject(event['item']) ? event['item'] : {};
        if (item['type'] === 'function_call') {
          slots.set(index, { kind: 'call', call: calls });
          yield { type: 'tool_call', choice: 0, call: calls++, id: String(item['call_id'] ?? ''), name: String(item['name'] ?? '') };
        } else if (item['type'] === 'reasoning') slots.set(index, { kind: 'reasoning', part: parts++, summarized: false });
        else slots.set(index, { kind: 'other' });
        break;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof event['delta'] === 'string' && event['delta'] !== '') yield { type: 'text', choice: 0, text: event['delta'] };
        break;
      case 'response.function_call_arguments.delta': {
        const slot = slots.get(index);
        if (slot?.kind === 'call' && typeof event['delta'] === 'string' && event['delta'] !== '') {
          yield { type: 'tool_arguments', choice: 0, call: slot.call, fragment: event['delta'] };
        }
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const slot = slots.get(index);
        if (slot?.kind === 'reasoning' && typeof event['delta'] === 'string') {
          slot.summarized = true;
          yield { type: 'reasoning', choice: 0, part: slot.part, text: event['delta'], origin: 'openai' };
        }
        break;
      }
      case 'response.output_item.done': {
        const slot = slots.get(index);
        const item = isObject(event['item']) ? event['item'] : {};
        if (slot?.kind === 'reasoning') {
          const whole = reasoningOfItem(item);
          // The encrypted content (and the text, when no delta carried it) arrives with the finished item.
          yield {
            type: 'reasoning',
            choice: 0,
            part: slot.part,
            text: slot.summarized ? '' : whole.text,
            origin: 'openai',
            ...(whole.data !== undefined && { data: whole.data }),
          };
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = isObject(event['response']) ? event['response'] : {};
        yield { type: 'finish', choice: 0, reason: finishOfResponse(response, calls > 0) };
        yield { type: 'usage', ...usageOfResponse(response['usage']) };
        return;
      }
      case 'response.failed':
        throw failureOf(isObject(event['response']) ? event['response'] : {});
      case 'error': {
        const code = event['code'];
        const status = code === 'rate_limit_exceeded' ? 429 : 500;
        throw upstreamError(status, {
          error: { message: typeof event['message'] === 'string' ? event['message'] : 'The upstream failed.' },
        });
      }
    }
  }
  throw new GatewayError('upstream_failed', 'The Responses upstream ended its stream before the response completed.');
}

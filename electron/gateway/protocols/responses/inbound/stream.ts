// The named SSE events of a streamed Response, in the documented order, each with its increasing sequence_number.
import type { Fields } from '../../fields.ts';
import type { NamedEvent } from '../../named-event.ts';
import type { ResponseItem } from './items.ts';
import type { ResponsesCall } from './request.ts';
import { responseObject, type ResponseMeta, type ResponseOutcome } from './response.ts';

/**
 * response.created, response.in_progress, then per output item: output_item.added, (content_part.added,
 * output_text.delta…, output_text.done, content_part.done) or (function_call_arguments.delta…, .done),
 * output_item.done; and last response.completed (response.incomplete when cut at max_output_tokens).
 */
export function responseStreamEvents(
  call: ResponsesCall,
  meta: ResponseMeta,
  outcome: ResponseOutcome,
  split: (text: string) => string[],
): NamedEvent[] {
  const events: Fields[] = [];
  const started = responseObject(call, meta);
  events.push({ type: 'response.created', response: started }, { type: 'response.in_progress', response: started });
  outcome.output.forEach((item, outputIndex) => {
    events.push(...(item['type'] === 'message' ? messageEvents(item, outputIndex, split) : callEvents(item, outputIndex, split)));
  });
  const final = responseObject(call, meta, outcome);
  events.push({ type: outcome.status === 'completed' ? 'response.completed' : 'response.incomplete', response: final });
  return events.map((data, sequence) => ({ name: String(data['type']), data: { ...data, sequence_number: sequence } }));
}

function messageEvents(item: ResponseItem, outputIndex: number, split: (text: string) => string[]): Fields[] {
  const part = (item['content'] as Fields[])[0] ?? { type: 'output_text', annotations: [], logprobs: [], text: '' };
  const text = String(part['text']);
  const at = { item_id: item['id'], output_index: outputIndex, content_index: 0 };
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', ...at, part: { ...part, text: '' } },
    ...split(text)
      .filter((delta) => delta !== '')
      .map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...at, text, logprobs: [] },
    { type: 'response.content_part.done', ...at, part },
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

function callEvents(item: ResponseItem, outputIndex: number, split: (text: string) => string[]): Fields[] {
  const args = String(item['arguments']);
  const at = { item_id: item['id'], output_index: outputIndex };
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } },
    ...split(args)
      .filter((delta) => delta !== '')
      .map((delta) => ({ type: 'response.function_call_arguments.delta', ...at, delta })),
    { type: 'response.function_call_arguments.done', ...at, name: item['name'], arguments: args },
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

// The named SSE events of a streamed Response as its deltas arrive, in the documented order, each with its increasing sequence_number.
import type { ChatDelta, TextDelta } from '../../neutral/deltas.ts';
import type { Fields } from '../../fields.ts';
import { dataFrame, EventRun, type NamedEvent } from '../../named-event.ts';
import { quotedTexts } from '../../quoted-texts.ts';
import { stepAsync, stepAtHand, type AtHand, type Hold, type Steps } from '../../at-hand.ts';
import type { ResponseItem } from './items.ts';
import type { ResponsesCall } from './request.ts';
import { carryToolId } from '../../neutral/carry.ts';
import { reasoningItem, responseObject, statusOf, type ResponseMeta, type ResponseOutcome } from './response.ts';

/** What a stream needs besides the call: the response's identity, item ids, and who keeps the finished Response. */
export interface ResponseStreamMeta extends ResponseMeta {
  /** Names each output item (`msg`, `fc`). */
  newId: (prefix: string) => string;
  /** Receives the finished Response, built from what was streamed, before its last event is sent (the route stores it). */
  onComplete?: (response: Fields) => void;
}

/** The output item being streamed. */
type OpenItem =
  | { kind: 'message'; item: ResponseItem; text: string }
  | { kind: 'call'; item: ResponseItem; args: string }
  | { kind: 'reasoning'; item: ResponseItem; part: number; text: string; summaryOpen: boolean };

/**
 * response.created, response.in_progress, then per output item (from the first choice's deltas):
 * output_item.added, (content_part.added, output_text.delta…, output_text.done, content_part.done) or
 * (function_call_arguments.delta…, .done), output_item.done; and, once the usage is known, response.completed
 * (response.incomplete when cut at max_output_tokens) with the whole Response.
 */
export function responseStreamEvents(
  deltas: AsyncIterable<ChatDelta>,
  call: ResponsesCall,
  meta: ResponseStreamMeta,
): AsyncGenerator<NamedEvent> {
  // Runs are gathered at hand only: the async path steps each delta.
  return stepAsync(deltas, eventSteps(call, meta)) as AsyncGenerator<NamedEvent>;
}

/** The events of `responseStreamEvents` from deltas all at hand, pulled synchronously (the text pieces of an open message as one EventRun). */
export function responseStreamEventsAtHand(
  deltas: AtHand<ChatDelta>,
  call: ResponsesCall,
  meta: ResponseStreamMeta,
): Iterable<NamedEvent | EventRun | Hold> {
  return stepAtHand(deltas, eventSteps(call, meta));
}

function eventSteps(call: ResponsesCall, meta: ResponseStreamMeta): Steps<ChatDelta, NamedEvent | EventRun> {
  let sequence = 0;
  const event = (data: Fields): NamedEvent => ({ name: String(data['type']), data: { ...data, sequence_number: sequence++ } });
  // The response as it starts, serialized once for both events that carry it (their frames written around it).
  const starting = (type: string, started: Fields, json: string): NamedEvent => {
    const sequence_number = sequence++;
    const frame = `event: ${type}\n${dataFrame(`{"type":"${type}","response":${json},"sequence_number":${sequence_number}}`)}`;
    return { name: type, data: { type, response: started, sequence_number }, frame };
  };
  const begin = (out: NamedEvent[]) => {
    const started = responseObject(call, meta);
    const json = JSON.stringify(started);
    out.push(starting('response.created', started, json));
    out.push(starting('response.in_progress', started, json));
  };
  const output: ResponseItem[] = [];
  let open: OpenItem | undefined;
  let ending: Pick<ResponseOutcome, 'status' | 'incompleteReason'> = { status: 'completed' };
  const at = (item: ResponseItem) => ({ item_id: item['id'], output_index: output.length });
  const close = (status: 'completed' | 'incomplete', out: NamedEvent[]) => {
    if (!open) return;
    const { item } = open;
    if (open.kind === 'message') {
      const part = { type: 'output_text', annotations: [], logprobs: [], text: open.text };
      item['status'] = status;
      item['content'] = [part];
      out.push(event({ type: 'response.output_text.done', ...at(item), content_index: 0, text: open.text, logprobs: [] }));
      out.push(event({ type: 'response.content_part.done', ...at(item), content_index: 0, part }));
    } else if (open.kind === 'reasoning') {
      if (open.summaryOpen) {
        const part = { type: 'summary_text', text: open.text };
        out.push(event({ type: 'response.reasoning_summary_text.done', ...at(item), summary_index: 0, text: open.text }));
        out.push(event({ type: 'response.reasoning_summary_part.done', ...at(item), summary_index: 0, part }));
      }
    } else {
      item['arguments'] = open.args;
      out.push(event({ type: 'response.function_call_arguments.done', ...at(item), name: item['name'], arguments: open.args }));
    }
    out.push(event({ type: 'response.output_item.done', output_index: output.length, item }));
    output.push(item);
    open = undefined;
  };
  const openMessage = (out: NamedEvent[]) => {
    const item: ResponseItem = { id: meta.newId('msg'), type: 'message', status: 'in_progress', content: [], role: 'assistant' };
    open = { kind: 'message', item, text: '' };
    out.push(event({ type: 'response.output_item.added', output_index: output.length, item: { ...item } }));
    const part = { type: 'output_text', annotations: [], logprobs: [], text: '' };
    out.push(event({ type: 'response.content_part.added', ...at(item), content_index: 0, part }));
  };
  const step = (delta: ChatDelta, out: NamedEvent[]) => {
    if (delta.type !== 'usage' && delta.choice !== 0) return; // a Response has one answer
    switch (delta.type) {
      case 'reasoning': {
        if (open?.kind !== 'reasoning' || open.part !== delta.part) {
          close('completed', out);
          const item = reasoningItem({ text: '' }, meta.newId);
          open = { kind: 'reasoning', item, part: delta.part, text: '', summaryOpen: false };
          out.push(event({ type: 'response.output_item.added', output_index: output.length, item: { ...item } }));
        }
        const reasoning = open;
        if (delta.text !== '') {
          if (!reasoning.summaryOpen) {
            reasoning.summaryOpen = true;
            out.push(
              event({
                type: 'response.reasoning_summary_part.added',
                ...at(reasoning.item),
                summary_index: 0,
                part: { type: 'summary_text', text: '' },
              }),
            );
          }
          reasoning.text += delta.text;
          out.push(event({ type: 'response.reasoning_summary_text.delta', ...at(reasoning.item), summary_index: 0, delta: delta.text }));
        }
        // The finished item carries the whole summary and the opaque reasoning to send back.
        const whole = reasoningItem(
          {
            text: reasoning.text,
            ...(delta.origin !== undefined && { origin: delta.origin }),
            ...(delta.signature !== undefined && { signature: delta.signature }),
            ...(delta.data !== undefined && { data: delta.data }),
          },
          meta.newId,
        );
        reasoning.item['summary'] = whole['summary'];
        if (whole['encrypted_content'] !== undefined) reasoning.item['encrypted_content'] = whole['encrypted_content'];
        if (delta.data !== undefined && delta.origin === 'openai') reasoning.item['id'] = whole['id'];
        break;
      }
      case 'text':
        if (open?.kind !== 'message') {
          close('completed', out);
          openMessage(out);
        }
        if (open?.kind === 'message' && delta.text !== '') {
          open.text += delta.text;
          out.push(event({ type: 'response.output_text.delta', ...at(open.item), content_index: 0, delta: delta.text, logprobs: [] }));
        }
        break;
      case 'tool_call': {
        close('completed', out);
        const item: ResponseItem = {
          id: meta.newId('fc'),
          type: 'function_call',
          status: 'completed',
          arguments: '',
          call_id: carryToolId(delta.id, delta.thoughtSignature),
          name: delta.name,
        };
        open = { kind: 'call', item, args: '' };
        out.push(event({ type: 'response.output_item.added', output_index: output.length, item: { ...item, status: 'in_progress' } }));
        break;
      }
      case 'tool_arguments':
        if (open?.kind === 'call' && delta.fragment !== '') {
          open.args += delta.fragment;
          out.push(event({ type: 'response.function_call_arguments.delta', ...at(open.item), delta: delta.fragment }));
        }
        break;
      case 'finish':
        ending = statusOf(delta.reason);
        // An answer always has an item: an empty answer is one empty message.
        if (!open && output.length === 0) openMessage(out);
        close(ending.status, out);
        break;
      case 'usage': {
        const { type: _type, ...usage } = delta;
        const outcome: ResponseOutcome = { output, ...ending, usage };
        const response = responseObject(call, meta, outcome);
        meta.onComplete?.(response);
        out.push(event({ type: outcome.status === 'completed' ? 'response.completed' : 'response.incomplete', response }));
        break;
      }
    }
  };
  // At hand, the text pieces of an open message are written together: their frames made in one pass around each quoted
  // piece, numbered in turn; the message's text grows as the pieces pass, as it does event by event.
  const gather = {
    joins: (delta: ChatDelta) => delta.type === 'text' && delta.choice === 0 && open?.kind === 'message' && delta.text !== '',
    made: (run: readonly TextDelta[]): EventRun => {
      const message = open as Extract<OpenItem, { kind: 'message' }>;
      for (const delta of run) message.text += delta.text;
      const from = sequence;
      sequence += run.length;
      const { item_id, output_index } = at(message.item);
      const type = 'response.output_text.delta';
      const head = `{"type":"${type}","item_id":${JSON.stringify(item_id)},"output_index":${output_index},"content_index":0,"delta":`;
      const events = () =>
        run.map((delta, index): NamedEvent => {
          const data = { type, item_id, output_index, content_index: 0, delta: delta.text, logprobs: [], sequence_number: from + index };
          return { name: type, data };
        });
      const shape = {
        name: type,
        head,
        quoted: quotedTexts(run),
        tail: ',"logprobs":[],"sequence_number":',
        numbered: { from, close: '}' },
      };
      return new EventRun(shape, events);
    },
  };
  return { begin, step, gather };
}

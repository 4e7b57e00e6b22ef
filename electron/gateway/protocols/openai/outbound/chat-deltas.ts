// Reads an OpenAI chat completions stream (its `chat.completion.chunk` events) into neutral deltas as each chunk arrives.
import { GatewayError } from '../../../errors.ts';
import type { ChatUsage } from '../../neutral/chat.ts';
import type { ChatDelta } from '../../neutral/deltas.ts';
import { isObject, type Fields } from '../../fields.ts';
import { finishReasonFrom, reasoningTextOf, usageFrom } from '../chat-tables.ts';
import { fallbackCallId, stopSequenceOf } from './chat-result.ts';
import { streamErrorOf } from './stream-error.ts';

/** The most choices a stream may number (chat completions' `n` goes up to 128). */
export const MAX_STREAM_CHOICES = 128;
/** The most tool calls one stream may start, over all its choices. */
export const MAX_STREAM_CALLS = 4096;

/** One choice's tool calls: the neutral call number and id of each upstream `index`, and the index fragments without one belong to. */
interface ChoiceCalls {
  byIndex: Map<number, { call: number; id: string }>;
  count: number;
  last?: number;
}

/**
 * The neutral deltas of a chat completions stream: per chunk and choice, reasoning (`reasoning_content` or `reasoning`)
 * as reasoning part 0, `content` (and a refusal's text) as text, tool-call fragments by `index` (a new `id` at a known
 * index starts another call), then the finish; the usage chunk's counts become one usage delta at the end (the last
 * one wins when an upstream reports usage on every chunk). An `error` event throws its error after the deltas before it.
 */
export async function* chatChunkDeltas(events: AsyncIterable<unknown>): AsyncGenerator<ChatDelta> {
  const calls = new Map<number, ChoiceCalls>();
  let started = 0;
  let usage: ChatUsage | undefined;
  for await (const event of events) {
    if (!isObject(event)) continue;
    if (event['error'] !== undefined && event['error'] !== null) throw streamErrorOf(event['error']);
    usage = usageFrom(event['usage']) ?? usage;
    for (const choice of Array.isArray(event['choices']) ? event['choices'] : []) {
      if (!isObject(choice)) continue;
      const index = choiceIndexOf(choice);
      const delta = isObject(choice['delta']) ? choice['delta'] : {};
      const reasoning = reasoningTextOf(delta);
      if (reasoning !== undefined) yield { type: 'reasoning', choice: index, part: 0, text: reasoning };
      for (const key of ['content', 'refusal']) {
        const text = delta[key];
        if (typeof text === 'string' && text !== '') yield { type: 'text', choice: index, text };
      }
      for (const fragment of Array.isArray(delta['tool_calls']) ? delta['tool_calls'].filter(isObject) : []) {
        let state = calls.get(index);
        if (!state) calls.set(index, (state = { byIndex: new Map(), count: 0 }));
        const { deltas, startedCall } = callDeltas(index, state, fragment);
        if (startedCall && ++started > MAX_STREAM_CALLS) {
          throw new GatewayError('upstream_failed', `The upstream stream started more than ${MAX_STREAM_CALLS} tool calls.`);
        }
        yield* deltas;
      }
      // OpenRouter ends a choice that failed mid-stream with finish_reason `error` (and the error on the choice or the chunk).
      if (choice['finish_reason'] === 'error') throw streamErrorOf(choice['error'] ?? 'The upstream ended its answer with an error.');
      if (choice['finish_reason'] !== undefined && choice['finish_reason'] !== null) {
        const reason = finishReasonFrom(choice['finish_reason']);
        const stopSequence = reason === 'stop' ? stopSequenceOf(choice) : undefined;
        yield stopSequence !== undefined
          ? { type: 'finish', choice: index, reason: 'stop_sequence', stopSequence }
          : { type: 'finish', choice: index, reason };
      }
    }
  }
  if (usage) yield { type: 'usage', ...usage };
}

function choiceIndexOf(choice: Fields): number {
  const index = choice['index'] ?? 0;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= MAX_STREAM_CHOICES) {
    throw new GatewayError('upstream_failed', 'The upstream stream named a choice index out of range.');
  }
  return index;
}

/** The deltas of one tool-call fragment: a `tool_call` when it starts a call, then its arguments piece if any. */
function callDeltas(choice: number, state: ChoiceCalls, fragment: Fields): { deltas: ChatDelta[]; startedCall: boolean } {
  const id = typeof fragment['id'] === 'string' && fragment['id'] !== '' ? fragment['id'] : undefined;
  const fn = isObject(fragment['function']) ? fragment['function'] : {};
  // Without an index (some servers), a fragment with a new id starts a call; one without continues the last.
  const at =
    typeof fragment['index'] === 'number'
      ? fragment['index']
      : id !== undefined && (state.last === undefined || state.byIndex.get(state.last)?.id !== id)
        ? state.byIndex.size
        : (state.last ?? 0);
  state.last = at;
  const deltas: ChatDelta[] = [];
  let known = state.byIndex.get(at);
  const startedCall = !known || (id !== undefined && id !== known.id);
  if (startedCall) {
    known = { call: state.count++, id: id ?? fallbackCallId(choice, state.count - 1) };
    state.byIndex.set(at, known);
    deltas.push({ type: 'tool_call', choice, call: known.call, id: known.id, name: typeof fn['name'] === 'string' ? fn['name'] : '' });
  }
  const args = fn['arguments'];
  if (typeof args === 'string' && args !== '') deltas.push({ type: 'tool_arguments', choice, call: known!.call, fragment: args });
  return { deltas, startedCall };
}

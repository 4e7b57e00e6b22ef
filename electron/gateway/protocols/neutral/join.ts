// Joins several answers into one: the legacy completions API answers every prompt of a call as choices of one completion.
import type { ChatResult } from './chat.ts';
import type { ChatDelta, ChatStream } from './deltas.ts';

/** The answers one after another: their choices in order, their usage summed. */
export function joinChatResults(results: readonly ChatResult[]): ChatResult {
  return {
    choices: results.flatMap((result) => result.choices),
    usage: {
      inputTokens: results.reduce((sum, result) => sum + result.usage.inputTokens, 0),
      outputTokens: results.reduce((sum, result) => sum + result.usage.outputTokens, 0),
    },
  };
}

/**
 * The streams one after another, `choices[i]` choices each: stream i's choices are renumbered after those of the
 * streams before it, and their usage deltas become one, summed, at the end (none when a stream stopped without one).
 */
export function joinChatStreams(streams: readonly ChatStream[], choices: readonly number[]): ChatStream {
  const known = streams.every((stream) => stream.inputTokens !== undefined);
  return {
    ...(known && { inputTokens: streams.reduce((sum, stream) => sum + stream.inputTokens!, 0) }),
    [Symbol.asyncIterator]: () => joined(streams, choices),
  };
}

async function* joined(streams: readonly ChatStream[], choices: readonly number[]): AsyncGenerator<ChatDelta> {
  const usage = { inputTokens: 0, outputTokens: 0 };
  let counted = 0;
  let offset = 0;
  for (const [index, stream] of streams.entries()) {
    for await (const delta of stream) {
      if (delta.type === 'usage') {
        usage.inputTokens += delta.inputTokens;
        usage.outputTokens += delta.outputTokens;
        counted++;
      } else {
        yield { ...delta, choice: delta.choice + offset };
      }
    }
    offset += choices[index] ?? 1;
  }
  if (counted === streams.length) yield { type: 'usage', ...usage };
}

// Joins several answers into one: the legacy completions API answers every prompt of a call as choices of one completion.
import type { ChatResult } from './chat.ts';
import type { ChatDelta, ChatStream } from './deltas.ts';
import { Hold } from '../at-hand.ts';
import type { KeptSpans } from './kept-stream.ts';

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
 * At hand when every stream is; a lone kept stream keeps its spans when the join passes its deltas as they are.
 */
export function joinChatStreams(streams: readonly ChatStream[], choices: readonly number[]): ChatStream {
  const known = streams.every((stream) => stream.inputTokens !== undefined);
  const atHand = streams.every((stream) => stream.atHand !== undefined);
  const kept = atHand && streams.length === 1 ? keptAsJoined(streams[0]!) : undefined;
  return {
    ...(known && { inputTokens: streams.reduce((sum, stream) => sum + stream.inputTokens!, 0) }),
    [Symbol.asyncIterator]: () => joined(streams, choices),
    ...(atHand && { atHand: () => joinedAtHand(streams, choices) }),
    ...(kept && { keptAtHand: kept }),
  };
}

/**
 * A lone stream's kept spans, when joining it changes none of its deltas: its last one is its usage with no field the
 * sum leaves out (cached or reasoning tokens), so what a codec writes of the kept deltas, and what is charged for them,
 * is what it writes of and charges for the joined ones.
 */
function keptAsJoined(stream: ChatStream): KeptSpans | undefined {
  const kept = stream.keptAtHand;
  const last = kept?.kept.deltas.at(-1);
  if (last?.type !== 'usage' || last.cachedInputTokens !== undefined || last.reasoningTokens !== undefined) return undefined;
  return kept;
}

async function* joined(streams: readonly ChatStream[], choices: readonly number[]): AsyncGenerator<ChatDelta> {
  const join = new Join(streams.length);
  for (const [index, stream] of streams.entries()) {
    for await (const delta of stream) {
      const passed = join.pass(delta);
      if (passed) yield passed;
    }
    join.next(choices[index]);
  }
  if (join.counted()) yield join.usage();
}

/** `joined` over the streams' deltas at hand (a Hold passed on where it stood). */
function* joinedAtHand(streams: readonly ChatStream[], choices: readonly number[]): Generator<ChatDelta | Hold> {
  const join = new Join(streams.length);
  for (const [index, stream] of streams.entries()) {
    for (const delta of stream.atHand!()) {
      if (delta instanceof Hold) yield delta;
      else {
        const passed = join.pass(delta);
        if (passed) yield passed;
      }
    }
    join.next(choices[index]);
  }
  if (join.counted()) yield join.usage();
}

/** The join's rules, delta by delta: the usage kept to be summed, any other delta renumbered (as it is in the first stream). */
class Join {
  private readonly streams: number;
  private readonly summed = { inputTokens: 0, outputTokens: 0 };
  private usages = 0;
  private offset = 0;
  constructor(streams: number) {
    this.streams = streams;
  }
  /** The delta passed on, or undefined for a usage delta (summed). */
  pass(delta: ChatDelta): ChatDelta | undefined {
    if (delta.type === 'usage') {
      this.summed.inputTokens += delta.inputTokens;
      this.summed.outputTokens += delta.outputTokens;
      this.usages++;
      return undefined;
    }
    // The first stream's deltas pass as they are (a kept answer's frozen deltas stay shared, see ChatStream.atHand).
    return this.offset === 0 ? delta : { ...delta, choice: delta.choice + this.offset };
  }
  /** The stream ended, after `choices` choices. */
  next(choices: number | undefined): void {
    this.offset += choices ?? 1;
  }
  counted(): boolean {
    return this.usages === this.streams;
  }
  usage(): ChatDelta {
    return { type: 'usage', ...this.summed };
  }
}

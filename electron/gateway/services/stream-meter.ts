// What one chat stream delivered, counted as its deltas pass, and its charge made once: on its usage delta, or at its end for what was delivered.
import type { ChatUsage } from '../protocols/neutral/chat.ts';
import type { ChatDelta } from '../protocols/neutral/deltas.ts';
import { TokenCounter } from '../protocols/neutral/token-counter.ts';

/**
 * What one stream delivered, as its deltas pass: the output per choice (text) and per tool call (arguments), counted
 * apart so pieces of different outputs never merge into one token and never kept (but for a stream at hand, whose
 * deltas are kept and counted only when a charge asks); the first output told; the charge made once, on the usage
 * delta, or at the end for what was delivered when none came.
 */
export class StreamMeter {
  private readonly commit: (reported: ChatUsage, answerSize: number, deliveredTokens: () => number) => Promise<void>;
  private readonly answered: (outputTokens: number) => void;
  private readonly delivered = new Map<string, TokenCounter>();
  /** A stream at hand's text and argument deltas passed and not yet counted; undefined: each is counted as it passes. */
  private readonly uncounted: ChatDelta[] | undefined;
  /** Characters passed on, which bound the output a usage delta may claim. */
  private answerSize = 0;
  private outputSeen = false;
  /** Set once the usage charge is committed (by `pass`'s commit, so the end does not charge again). */
  private charged = false;

  constructor(commit: StreamMeter['commit'], answered: StreamMeter['answered'], atHand: boolean) {
    this.commit = commit;
    this.answered = answered;
    this.uncounted = atHand ? [] : undefined;
  }

  /** True for the stream's first delta of output (text, a tool call or its arguments), once. */
  firstOutput(delta: ChatDelta): boolean {
    if (this.outputSeen || (delta.type !== 'text' && delta.type !== 'tool_arguments' && delta.type !== 'tool_call')) return false;
    this.outputSeen = true;
    return true;
  }

  /**
   * Counts `delta`; a usage delta not yet charged starts its charge, returned to be awaited before the delta goes on:
   * once it is committed the stream counts as charged (a failed commit leaves it to `end`).
   */
  pass(delta: ChatDelta): Promise<void> | undefined {
    if (delta.type === 'usage') {
      if (!this.charged) return this.commit(delta, this.answerSize, this.deliveredTokens).then(this.committed);
    } else if (delta.type === 'text' || delta.type === 'tool_arguments') {
      this.answerSize += delta.type === 'text' ? delta.text.length : delta.fragment.length;
      if (this.uncounted) this.uncounted.push(delta);
      else this.count(delta);
    }
    return undefined;
  }

  /** The stream ended (or was left): charged for what was delivered when no usage charge was committed. */
  end(): void {
    // Nobody waits for this one (the caller left, or the stream ended without usage): it joins the next group commit.
    if (!this.charged) this.answered(this.deliveredTokens());
  }

  private readonly committed = (): void => {
    this.charged = true;
  };

  /** Counts a text or argument delta in its output's counter. */
  private count(delta: ChatDelta): void {
    if (delta.type === 'text') this.add(delta.choice === 0 ? '0' : `${delta.choice}`, delta.text);
    else if (delta.type === 'tool_arguments') this.add(`${delta.choice}:${delta.call}`, delta.fragment);
  }

  private add(key: string, text: string): void {
    let counter = this.delivered.get(key);
    if (!counter) this.delivered.set(key, (counter = new TokenCounter()));
    counter.add(text);
  }

  private readonly deliveredTokens = (): number => {
    if (this.uncounted) {
      for (const delta of this.uncounted) this.count(delta);
      this.uncounted.length = 0;
    }
    let outputTokens = 0;
    for (const counter of this.delivered.values()) outputTokens += counter.count;
    return outputTokens;
  };
}

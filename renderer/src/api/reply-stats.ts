// The measures the playground shows under a reply: output tokens, tokens per second and latency.

/** One reply's measures; null where the gateway did not say (no usage) or no time passed. */
export interface ReplyStats {
  /** Output tokens, as the answer's usage counts them. */
  tokens: number | null;
  /** Output tokens per second of generation: from the first text to the end when streamed, from the request to the answer when not. */
  tokensPerSecond: number | null;
  /** Milliseconds from the request to the first text (streamed) or to the whole answer (not streamed). */
  latencyMs: number;
}

/** Times of one reply, in milliseconds of one clock: sent, first text (null if none came), ended. */
export interface ReplyTimes {
  sentAt: number;
  firstTextAt: number | null;
  endedAt: number;
}

export function replyStats(tokens: number | null, times: ReplyTimes, streamed: boolean): ReplyStats {
  const latencyMs = Math.max(0, (streamed ? (times.firstTextAt ?? times.endedAt) : times.endedAt) - times.sentAt);
  const generationMs = times.endedAt - (streamed ? (times.firstTextAt ?? times.sentAt) : times.sentAt);
  const tokensPerSecond = tokens === null || generationMs <= 0 ? null : (tokens * 1000) / generationMs;
  return { tokens, tokensPerSecond, latencyMs: Math.round(latencyMs) };
}

// The JSON strings of a run of text pieces, which the codecs' runs of events (EventRun) are written around; kept for a kept answer's frozen deltas.

/**
 * The JSON strings of `run`'s texts; kept for a run of frozen deltas (a kept answer's, shared by every stream of it, see
 * `ChatStream.atHand`), found again by its first and last delta (a protocol that gathers another run from the same
 * first delta makes its own anew).
 */
export function quotedTexts(run: readonly { readonly text: string }[]): readonly string[] {
  const first = run[0]!;
  const last = run[run.length - 1]!;
  const shared = Object.isFrozen(first);
  const known = shared ? quotedRuns.get(first) : undefined;
  if (known && known.last === last && known.quoted.length === run.length) return known.quoted;
  const quoted = run.map((delta) => JSON.stringify(delta.text));
  if (shared) quotedRuns.set(first, { last, quoted });
  return quoted;
}

/** `quotedTexts` kept by the first delta of their run. */
const quotedRuns = new WeakMap<object, { last: object; quoted: readonly string[] }>();

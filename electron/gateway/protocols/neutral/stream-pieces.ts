// Cuts generated text into token-sized stream pieces, and tool-call argument JSON into fragments, losslessly.
import { nextTokenEnd } from './token-scan.ts';

/**
 * The text as one piece per token (see tokens.ts): each piece is a token with the whitespace before it;
 * trailing whitespace joins the last piece. `pieces.join('') === text`, and an empty text gives `['']`.
 */
export function streamPieces(text: string): string[] {
  return [...eachStreamPiece(text)];
}

/** The pieces of `streamPieces`, one at a time as they are asked for: a long answer is cut as it streams, in one linear pass however long a word. */
export function* eachStreamPiece(text: string): Generator<string> {
  let start = 0;
  let end = nextTokenEnd(text, 0);
  if (end < 0) {
    yield text;
    return;
  }
  while (end >= 0) {
    const next = nextTokenEnd(text, end);
    yield text.slice(start, next < 0 ? text.length : end);
    start = end;
    end = next;
  }
}

/** The first `count` pieces of `text` joined (`streamPieces(text).slice(0, count).join('')`) when it has more; undefined when it has at most `count`. */
export function firstPieces(text: string, count: number): string | undefined {
  // Any text is at least one piece (an empty one is ['']).
  if (count <= 0) return '';
  let end = 0;
  for (let seen = 0; seen < count; seen += 1) {
    end = nextTokenEnd(text, end);
    if (end < 0) return undefined;
  }
  return nextTokenEnd(text, end) < 0 ? undefined : text.slice(0, end);
}

/** Tokens per argument fragment: streamed tool arguments arrive a few tokens at a time, as from real models. */
const TOKENS_PER_FRAGMENT = 3;

/** A tool call's arguments JSON text in small fragments whose concatenation is the text. */
export function argumentFragments(json: string): string[] {
  const pieces = streamPieces(json);
  const fragments: string[] = [];
  for (let i = 0; i < pieces.length; i += TOKENS_PER_FRAGMENT) {
    fragments.push(pieces.slice(i, i + TOKENS_PER_FRAGMENT).join(''));
  }
  return fragments;
}

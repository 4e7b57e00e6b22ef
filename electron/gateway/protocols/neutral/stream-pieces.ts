// Cuts generated text into token-sized stream pieces, and tool-call argument JSON into fragments, losslessly.
import { TOKEN_PATTERN } from './tokens.ts';

/**
 * The text as one piece per token (see tokens.ts): each piece is a token with the whitespace before it;
 * trailing whitespace joins the last piece. `pieces.join('') === text`, and an empty text gives `['']`.
 */
export function streamPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const end = match.index + match[0].length;
    pieces.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) {
    if (pieces.length === 0) pieces.push(text.slice(start));
    else pieces[pieces.length - 1] += text.slice(start);
  }
  return pieces.length === 0 ? [''] : pieces;
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

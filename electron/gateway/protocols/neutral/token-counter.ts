// Counts the tokens of a text that arrives in pieces (a stream's deltas) in constant memory, equal to countTokens of the whole text.
import { countTokens } from './tokens.ts';

const WORD_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;

/** Adds pieces of one text as they arrive; `count` is always countTokens of everything added so far (pieces may split a word or a surrogate pair). */
export class TokenCounter {
  private total = 0;
  /** The text so far ended inside a word: a piece that starts with a word character continues it. */
  private inWord = false;
  /** A high surrogate that ended the last piece, waiting for its pair. */
  private held = '';

  add(piece: string): void {
    let text = this.held + piece;
    this.held = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.held = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text === '') return;
    let count = countTokens(text);
    if (this.inWord && isWordChar(String.fromCodePoint(text.codePointAt(0)!))) count -= 1;
    this.total += count;
    this.inWord = isWordChar(lastCodePoint(text));
  }

  /** The tokens of everything added (a held half character counts as the symbol it would be alone). */
  get count(): number {
    return this.held === '' ? this.total : this.total + countTokens(this.held) - (this.inWord && isWordChar(this.held) ? 1 : 0);
  }
}

function isWordChar(char: string): boolean {
  return WORD_CHAR.test(char);
}

function lastCodePoint(text: string): string {
  const code = text.charCodeAt(text.length - 1);
  return code >= 0xdc00 && code <= 0xdfff && text.length > 1 ? text.slice(-2) : text.slice(-1);
}

// A kept answer's renders: text a codec made once from a result its provider keeps, read again by every call that gets a copy of it.
import type { ChatResult } from './chat.ts';

/** Where a result handed out from a kept answer finds that answer's renders (not enumerable: a spread or JSON never carries it). */
const RENDERS = Symbol('renders');

/** A kept answer's renders by codec variant (a fixed few per codec), dropped with the answer. */
export type KeptRenders = Map<string, string>;

/**
 * Marks `copy` (a fresh copy of a kept answer, never changed after it is handed out) as reading `renders`: every codec that
 * renders it reads its text there, made by the first call. A result changed after this must not be marked.
 */
export function withRenders(copy: ChatResult, renders: KeptRenders): ChatResult {
  Object.defineProperty(copy, RENDERS, { value: renders });
  return copy;
}

/** The text `make` renders `result` as under `variant`: made once per kept answer when `result` is a marked copy of one, else made now. */
export function renderedOnce(result: ChatResult, variant: string, make: () => string): string {
  const renders = (result as { [RENDERS]?: KeptRenders })[RENDERS];
  if (renders === undefined) return make();
  let text = renders.get(variant);
  if (text === undefined) {
    text = make();
    renders.set(variant, text);
  }
  return text;
}

// A kept answer's renders: text a codec made once from a result its provider keeps, read again by every call that gets a copy of it.
import type { ChatResult } from './chat.ts';

/** A kept answer's renders by codec variant (a fixed few per codec), dropped with the answer. */
export type KeptRenders = Map<string, string>;

/** A constructor that gives back the object it is handed, so a class extending it can put its private field on that object. */
class Given {
  constructor(target: object) {
    return target;
  }
}

/**
 * Where a result handed out from a kept answer finds that answer's renders: a private field put on the plain copy
 * (`new Marked(copy, renders)`), which no spread, JSON, key listing or deep comparison sees and which leaves the copy's
 * prototype as it is. Defining a non-enumerable property instead cost each call a runtime step several times as long.
 */
class Marked extends Given {
  readonly #renders: KeptRenders;
  constructor(copy: ChatResult, renders: KeptRenders) {
    super(copy);
    this.#renders = renders;
  }

  /** The renders `result` was marked with, or undefined when it was not. */
  static of(result: ChatResult): KeptRenders | undefined {
    return #renders in result ? result.#renders : undefined;
  }
}

/**
 * Marks `copy` (a fresh copy of a kept answer, never changed after it is handed out) as reading `renders`: every codec that
 * renders it reads its text there, made by the first call. A result changed after this must not be marked.
 */
export function withRenders(copy: ChatResult, renders: KeptRenders): ChatResult {
  new Marked(copy, renders);
  return copy;
}

/** The text `make` renders `result` as under `variant`: made once per kept answer when `result` is a marked copy of one, else made now. */
export function renderedOnce(result: ChatResult, variant: string, make: () => string): string {
  const renders = Marked.of(result);
  if (renders === undefined) return make();
  let text = renders.get(variant);
  if (text === undefined) {
    text = make();
    renders.set(variant, text);
  }
  return text;
}

// Keeps a channel's key out of everything an upstream sends back (headers, bodies, streams, frames): the key in any encoding becomes its hint (`sk-…wxyz`), as in error texts (hideSecret).
import { secretHint } from '../../../../shared/channels.ts';
import { scrubHead, scrubText, scrubWhole, SecretScrubber, type HiddenSecret } from '../../../../shared/secret-scrub.ts';

type Key = string | null | undefined;

/** The keys given, each with its hint (`ascii`: the hint's ellipsis as three dots, for a header value). */
function hiddenOf(keys: readonly Key[], ascii = false): readonly HiddenSecret[] {
  if (keys.length === 1) return hiddenOfKey(keys[0], ascii);
  return keys
    .filter((key): key is string => typeof key === 'string' && key !== '')
    .map((secret) => ({ secret, hint: ascii ? secretHint(secret).replace('…', '...') : secretHint(secret) }));
}

/** The hidden forms last made for one key, plain and ASCII: a relayed call asks for its channel's key several times. */
const lastHidden: { plain?: { key: string; hidden: readonly HiddenSecret[] }; ascii?: { key: string; hidden: readonly HiddenSecret[] } } =
  {};

function hiddenOfKey(key: Key, ascii: boolean): readonly HiddenSecret[] {
  if (typeof key !== 'string' || key === '') return [];
  const slot = ascii ? 'ascii' : 'plain';
  const last = lastHidden[slot];
  if (last?.key === key) return last.hidden;
  const hint = ascii ? secretHint(key).replace('…', '...') : secretHint(key);
  const hidden = Object.freeze([Object.freeze({ secret: key, hint })]);
  lastHidden[slot] = { key, hidden };
  return hidden;
}

/** Whether `text` holds `key` in any encoding the scrub finds. */
export function holdsKey(text: string, key: Key): boolean {
  const hidden = hiddenOfKey(key, false);
  return hidden.length > 0 && scrubText(text, hidden) !== text;
}

/** A streaming scrubber of the keys (see SecretScrubber); null when there is no key to hide. */
export function keyScrubber(...keys: Key[]): SecretScrubber | null {
  const hidden = hiddenOf(keys);
  return hidden.length === 0 ? null : new SecretScrubber(hidden);
}

/** `bytes` with every key found in them replaced by its hint; the same bytes when none is in them. */
export function scrubBytes(bytes: Uint8Array, ...keys: Key[]): Uint8Array {
  return scrubWhole(bytes, hiddenOf(keys));
}

/** `scrubBytes` of a Buffer, as a Buffer (the same one when no key is in it). */
export function scrubBuffer(bytes: Buffer, ...keys: Key[]): Buffer {
  const scrubbed = scrubBytes(bytes, ...keys);
  return scrubbed === bytes ? bytes : Buffer.from(scrubbed.buffer, scrubbed.byteOffset, scrubbed.byteLength);
}

/** What replaces every key found in a header value by its hint, in ASCII (a header carries no `…`): the hint made once for many values. */
export function headerScrubber(key: Key): (value: string) => string {
  const hidden = hiddenOf([key], true);
  if (hidden.length === 0) return (value) => value;
  return (value) => scrubText(value, hidden);
}

/**
 * The first `limit` bytes of an answer's start that was read (`whole`: the answer ended there; else more followed, unread),
 * each key found replaced by its hint before the cut; when more followed, a tail that could be the start of a key is left
 * out too (the rest of the key was never read, so no scrub could find it).
 */
export function scrubbedHead(bytes: Uint8Array, limit: number, whole: boolean, key: Key): Uint8Array {
  const hidden = hiddenOfKey(key, false);
  return (whole ? scrubWhole(bytes, hidden) : scrubHead(bytes, hidden)).subarray(0, limit);
}

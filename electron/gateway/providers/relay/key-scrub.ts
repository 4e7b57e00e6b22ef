// Keeps a channel's key out of everything an upstream sends back (headers, bodies, streams, frames): the key in any encoding becomes its hint (`sk-…wxyz`), as in error texts (hideSecret).
import { secretHint } from '../../../../shared/channels.ts';
import { scrubText, scrubWhole, SecretScrubber, type HiddenSecret } from '../../../../shared/secret-scrub.ts';

type Key = string | null | undefined;

/** The keys given, each with its hint (`ascii`: the hint's ellipsis as three dots, for a header value). */
function hiddenOf(keys: readonly Key[], ascii = false): HiddenSecret[] {
  return keys
    .filter((key): key is string => typeof key === 'string' && key !== '')
    .map((secret) => ({ secret, hint: ascii ? secretHint(secret).replace('…', '...') : secretHint(secret) }));
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

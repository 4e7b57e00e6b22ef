// Cassette file names: the readable slug, the request hash and the sequence a name carries, and a blob's bare name.

/** The file name's suffix of every cassette; anything else in a cassette folder (blobs, notes) is not a cassette. */
export const CASSETTE_SUFFIX = '.json';

/** Characters of the request hash a file name carries (hex): 64 bits, so a folder of 10,000 cassettes has no collision to fear. */
export const CASSETTE_HASH_CHARS = 16;

/** Most characters of a file name's readable slug (the model and the first words of the prompt). */
export const CASSETTE_SLUG_CHARS = 60;

/** Lower-case words of `text` joined by `-`, at most `max` characters (cut at a word end where it can be). */
export function cassetteSlug(text: string, max: number = CASSETTE_SLUG_CHARS): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug || 'call';
  const cut = slug.slice(0, max);
  const end = cut.lastIndexOf('-');
  return (end > max / 2 ? cut.slice(0, end) : cut).replace(/-+$/, '') || 'call';
}

/**
 * The file name of a cassette: a slug of the model and the first words of the prompt, the request key's first
 * CASSETTE_HASH_CHARS, and from the second recording of the same request on its sequence:
 * `gpt-4o-say-hello-in-three-words.3f9a1c2b7d4e5f60.json`, then `….3f9a1c2b7d4e5f60.2.json`.
 */
export function cassetteFileName(key: string, model: string | null, prompt: string | undefined, sequence: number): string {
  const words = (prompt ?? '').split(/\s+/).filter(Boolean).slice(0, 8).join(' ');
  const slug = cassetteSlug([model ?? '', words].filter(Boolean).join(' '));
  return `${slug}.${key.slice(0, CASSETTE_HASH_CHARS)}${sequence > 1 ? `.${sequence}` : ''}${CASSETTE_SUFFIX}`;
}

/** The hash prefix and sequence a cassette's file name carries, or undefined for a file that is not named as a cassette. */
export function cassetteNameParts(fileName: string): { hash: string; sequence: number } | undefined {
  const match = new RegExp(`\\.([0-9a-f]{${CASSETTE_HASH_CHARS}})(?:\\.(\\d{1,6}))?\\${CASSETTE_SUFFIX}$`).exec(fileName);
  if (!match) return undefined;
  return { hash: match[1]!, sequence: match[2] === undefined ? 1 : Number(match[2]) };
}

/** Whether `name` may be a blob's file name: a bare name in the cassette's folder. */
export function isBareFileName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && name.length <= 255;
}

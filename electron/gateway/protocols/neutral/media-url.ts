// Images as URLs: a `data:` URL read into inline base64 data with its media type, and inline data written back as one.
import type { MediaPart } from './chat.ts';

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)(?:;[\w-]+=[^;,]*)*;base64,(.*)$/s;

/**
 * The image a URL names: a base64 `data:` URL becomes inline data with its media type, any other URL stays a URL. A
 * `data:` URL that is not base64 image data gives undefined (the caller refuses it in its own protocol).
 */
export function mediaOfUrl(url: string): MediaPart | undefined {
  if (!/^data:/i.test(url)) return { type: 'image', url };
  const match = DATA_URL.exec(url);
  return match ? { type: 'image', data: match[2]!, mediaType: match[1]!.toLowerCase() } : undefined;
}

/** The URL of an image: its own, or a base64 `data:` URL of its inline data. */
export function urlOfMedia(part: MediaPart): string {
  return 'url' in part ? part.url : `data:${part.mediaType};base64,${part.data}`;
}

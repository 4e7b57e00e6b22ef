// The path of a request URL as an error message may echo it: never the query, never a credential-like piece, never long.
import { TOKEN_PREFIX } from '../ids.ts';
import { pathOfUrl } from './protocol.ts';

/** Longest part of a path echoed in an error message. */
export const SHOWN_PATH_LIMIT = 120;

const CREDENTIAL_PIECE = /((?:key|token|secret|password)[^=/&;]*=)[^/&;]*/gi;
const GATEWAY_TOKEN = new RegExp(`${TOKEN_PREFIX}[A-Za-z0-9_-]*`, 'g');

/** The path of `url` without its query, `key=…`-like pieces and gateway tokens masked, cut at SHOWN_PATH_LIMIT characters. */
export function shownPath(url: string): string {
  const path = pathOfUrl(url).replace(CREDENTIAL_PIECE, '$1***').replace(GATEWAY_TOKEN, `${TOKEN_PREFIX}***`);
  return path.length > SHOWN_PATH_LIMIT ? `${path.slice(0, SHOWN_PATH_LIMIT)}…` : path;
}

// Which URLs the desktop window may show: the console on its gateway (or the dev server), nothing else.
import { CONSOLE_PATH } from '../../shared/console-address.ts';

/** True when `url` is a page of the app itself: the console on one of the allowed origins. */
export function isAppUrl(url: string, allowedOrigins: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!allowedOrigins.includes(parsed.origin) || parsed.username !== '' || parsed.password !== '') return false;
  return (
    parsed.pathname === '/' ||
    parsed.pathname === `${CONSOLE_PATH}/` ||
    parsed.pathname.startsWith(`${CONSOLE_PATH}/`) ||
    parsed.pathname === '/index.html'
  );
}

/** The origin of a URL, or undefined for something that is not one. */
export function originOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

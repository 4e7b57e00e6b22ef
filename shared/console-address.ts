// Where the console and its admin API are served: their paths, the console's address carrying the admin token, and the console's Content-Security-Policy.

/** Path prefix of every admin API route. */
export const ADMIN_API_PREFIX = '/admin/api';

/** Path where the console is served. */
export const CONSOLE_PATH = '/console';

/** The console's Content-Security-Policy (sent by the gateway, enforced again by the desktop host): only its own files and origin. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "worker-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Query parameter that hands the admin token to a console opened in a browser (moved to sessionStorage at once). */
export const ADMIN_TOKEN_PARAM = 'admin_token';

/** The ready-to-open console URL for a gateway base URL and admin token. */
export function consoleUrlOf(baseUrl: string, adminToken: string): string {
  return `${baseUrl}${CONSOLE_PATH}/?${new URLSearchParams({ [ADMIN_TOKEN_PARAM]: adminToken })}`;
}

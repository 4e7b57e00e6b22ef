// The admin API as the testing helper calls it: JSON in and out with the admin token, an error answer thrown with its message.
import { ADMIN_API_PREFIX } from '../../shared/console-address.ts';

/** An admin API call that was refused: the HTTP status and the gateway's message. */
export class GatehouseAdminError extends Error {
  readonly status: number;

  constructor(method: string, path: string, status: number, message: string) {
    super(`${method} ${ADMIN_API_PREFIX}${path} answered ${status}: ${message}`);
    this.name = 'GatehouseAdminError';
    this.status = status;
  }
}

/** Calls one admin route (`path` after `/admin/api`), query values left out when undefined. */
export type AdminCall = <T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options?: { query?: Record<string, string | number | undefined>; body?: unknown },
) => Promise<T>;

/** An admin API client of the gateway at `url` with `adminToken`. */
export function adminClient(url: string, adminToken: string): AdminCall {
  return async <T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { query?: Record<string, string | number | undefined>; body?: unknown } = {},
  ): Promise<T> => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(name, String(value));
    const search = query.size > 0 ? `?${query}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${ADMIN_API_PREFIX}${path}${search}`, {
      method,
      headers,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) {
      const message = (parsed as { error?: { message?: unknown } } | undefined)?.error?.message;
      throw new GatehouseAdminError(method, path, response.status, typeof message === 'string' ? message : text);
    }
    return parsed as T;
  };
}

/** The JSON of an answer; undefined when it is empty or not JSON (the message then is the text itself). */
function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Typed client of the admin API: one `call(name, input)` for every route of the shared contract.
import { ADMIN_ROUTES, fillPath, type AdminApi, type AdminRouteName } from '../../../shared/admin-api.ts';
import { errorOfResponse, send } from './http.ts';

/** What a call needs: the route's path parameters, query and body, each only when the route has them. */
export type CallInput<K extends AdminRouteName> = (AdminApi[K]['params'] extends Record<string, never>
  ? { params?: undefined }
  : { params: AdminApi[K]['params'] }) &
  (AdminApi[K]['body'] extends undefined ? { body?: undefined } : { body: AdminApi[K]['body'] }) & {
    query?: AdminApi[K]['query'];
  };

/** Calls an admin route and resolves with its typed answer, or rejects with an ApiError. */
export type AdminCall = <K extends AdminRouteName>(name: K, input?: CallInput<K>) => Promise<AdminApi[K]['reply']>;

export interface AdminClientOptions {
  /** Origin of the gateway ('' for the page's own origin). */
  apiBase: string;
  adminToken: string;
  fetch?: typeof fetch;
}

export function createAdminClient(options: AdminClientOptions): AdminCall {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return async function call<K extends AdminRouteName>(name: K, input?: CallInput<K>): Promise<AdminApi[K]['reply']> {
    const route = ADMIN_ROUTES[name];
    const path = fillPath(route.path, (input?.params ?? {}) as Record<string, string>);
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(input?.query ?? {})) {
      if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
    }
    const url = `${options.apiBase}${path}${query.size > 0 ? `?${query}` : ''}`;
    const headers: Record<string, string> = { authorization: `Bearer ${options.adminToken}` };
    if (input?.body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(fetchImpl, url, {
      method: route.method,
      headers,
      ...(input?.body !== undefined && { body: JSON.stringify(input.body) }),
    });
    if (!response.ok) throw await errorOfResponse(response);
    return (await response.json()) as AdminApi[K]['reply'];
  };
}

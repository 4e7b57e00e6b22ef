// HTTP helpers of the console: the error type every call throws, with a message a user can act on.

/** A failed call: the gateway's own message when it sent one, the field at fault, and the HTTP status (0 when unreachable). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly param: string | null;
  constructor(message: string, status: number, param: string | null = null) {
    super(message);
    this.status = status;
    this.param = param;
  }
}

/** The message and field of any error body the gateway speaks (OpenAI, Anthropic, Gemini, portrait envelope). */
export function errorOfBody(body: unknown): { message: string; param: string | null } | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const inner = record['error'];
  if (inner && typeof inner === 'object') {
    const error = inner as Record<string, unknown>;
    if (typeof error['message'] === 'string') {
      return { message: error['message'], param: typeof error['param'] === 'string' ? error['param'] : null };
    }
  }
  if (record['success'] === false && typeof record['message'] === 'string') return { message: record['message'], param: null };
  return undefined;
}

/** What to tell the user when the gateway cannot be reached at all. */
export const UNREACHABLE = 'Cannot reach the gateway. Check that `gatehouse serve` (or the desktop app) is still running, then retry.';

/** Turns a non-OK response into an ApiError with the gateway's message, or a plain one naming the status. */
export async function errorOfResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const found = errorOfBody(body);
  if (found) return new ApiError(found.message, response.status, found.param);
  if (response.status === 401) return new ApiError('The gateway refused the credentials (HTTP 401).', 401);
  return new ApiError(`The gateway answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, response.status);
}

/** Runs fetch and maps network failures to an ApiError (an abort is rethrown as is). */
export async function send(fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchImpl(url, init);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(UNREACHABLE, 0);
  }
}

/** True for the error fetch throws when its signal aborts. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

// One upstream request: aborted when the caller goes away, and given up when its response headers take longer than the channel's timeout.
import { GatewayError } from '../../errors.ts';

/** An upstream response and the way to stop it (its body is read later, and stopped when the caller stops reading). */
export interface Fetched {
  response: Response;
  /** Aborts the request (idempotent); call it once the body is read or given up. */
  stop(): void;
}

/** What is sent: the method (POST by default), headers and body (none for GET and DELETE; a stream for a multipart form). */
export interface UpstreamInit {
  method?: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  body?: Buffer | AsyncIterable<Uint8Array>;
}

/**
 * Sends `init` to `url` (a streamed body is pulled as the upstream reads it). Rejects when the connection fails or no headers came within `timeoutMs` (a message fit to show),
 * or with `callerGone()` when `signal` fires first.
 */
export async function upstreamFetch(url: string, init: UpstreamInit, timeoutMs: number, signal: AbortSignal): Promise<Fetched> {
  if (signal.aborted) throw callerGone();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const stop = () => {
    signal.removeEventListener('abort', onAbort);
    controller.abort(new Error('the relay stopped reading'));
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  try {
    const body = init.body === undefined || Buffer.isBuffer(init.body) ? init.body : ReadableStream.from(init.body);
    const response = await fetch(url, {
      method: init.method ?? 'POST',
      headers: init.headers,
      ...(body !== undefined && { body, duplex: 'half' as const }),
      signal: controller.signal,
    });
    return { response, stop };
  } catch (error) {
    stop();
    if (signal.aborted) throw callerGone();
    if (timedOut) throw new GatewayError('upstream_failed', `no response headers within ${timeoutMs} ms`);
    throw new GatewayError('upstream_failed', `connection failed (${causeOf(error)})`);
  } finally {
    clearTimeout(timer);
  }
}

/** What a relay attempt throws once the caller went away (nobody reads it; it must not pass for a gateway bug). */
export function callerGone(): GatewayError {
  return new GatewayError('upstream_failed', 'The caller went away before the upstream answered.');
}

/** The network cause of a failed fetch, e.g. ECONNREFUSED. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

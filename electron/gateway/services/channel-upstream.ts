// The admin's own calls of a channel's upstream (test, fetch models): its credential header per kind, a timed fetch within the channel's timeout, a bounded body.
import { hideSecret, hideSecretInHead } from '../../../shared/channels.ts';
import type { RelayChannel } from '../providers/types.ts';

/** Version header every Anthropic call carries. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The headers of an admin call of a chat channel: its extra headers, JSON, and its key as its kind sends it. */
export function upstreamHeaders(channel: RelayChannel): Record<string, string> {
  const headers: Record<string, string> = { ...channel.headers, accept: 'application/json' };
  if (channel.kind === 'anthropic') headers['anthropic-version'] = ANTHROPIC_VERSION;
  if (channel.key === null) return headers;
  switch (channel.kind) {
    case 'openai':
      headers['authorization'] = `Bearer ${channel.key}`;
      break;
    case 'anthropic':
      headers['x-api-key'] = channel.key;
      break;
    case 'gemini':
      headers['x-goog-api-key'] = channel.key;
      break;
  }
  return headers;
}

/** What an admin call got: the status and the body read (at most `limit` bytes), or why there was no answer. */
export type UpstreamReply =
  | { ok: true; status: number; statusText: string; text: string; truncated: boolean; latencyMs: number }
  | { ok: false; error: string; latencyMs: number };

/**
 * Sends one request within `timeoutMs` (to the whole answer, body included), redirects not followed, and reads at most
 * `limit` bytes of the body; never throws. The channel's `key`, in any encoding, is hidden in the whole body read and in
 * the reason of a failure before anything of them is cut or shown (a key cut first would leave its start readable).
 */
export async function callUpstream(
  url: string,
  init: RequestInit,
  options: { timeoutMs: number; limit: number; key: string | null; fetchImpl?: typeof fetch },
): Promise<UpstreamReply> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const response = await (options.fetchImpl ?? fetch)(url, { ...init, redirect: 'manual', signal: abort.signal });
    const { bytes, truncated } = await readBounded(response, options.limit);
    // A body cut at the limit may end inside the key: its possible start is left out with the rest.
    const text = truncated
      ? Buffer.from(hideSecretInHead(bytes, options.key)).toString('utf8')
      : hideSecret(bytes.toString('utf8'), options.key);
    const statusText = hideSecret(response.statusText, options.key);
    return { ok: true, status: response.status, statusText, text, truncated, latencyMs: elapsed() };
  } catch (error) {
    const why = abort.signal.aborted ? `no answer within ${options.timeoutMs} ms from ${url}` : `cannot reach ${url}: ${causeOf(error)}`;
    return { ok: false, error: hideSecret(why, options.key), latencyMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

/** The body's bytes, cut at `limit` (the rest is not read: the stream is cancelled). */
async function readBounded(response: Response, limit: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  if (!response.body) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      parts.push(value.subarray(0, limit - size));
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(parts), truncated: true };
    }
    parts.push(value);
    size += value.byteLength;
  }
  return { bytes: Buffer.concat(parts), truncated: false };
}

/** `error.message` of an OpenAI, Anthropic or Gemini error body, else the start of the text. */
export function errorMessageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'object' && typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim().slice(0, 200);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

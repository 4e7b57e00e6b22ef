// Calls of a `platform` channel: another server of this platform's API (another Gatehouse, or the real platform), with the channel's bearer token.
import { UpstreamError } from '../../errors.ts';
import { jsonOf, scrub, serviceFetch, type ServiceAnswer } from '../service-http.ts';
import type { ServiceChannel } from '../types.ts';

/** The prefix a portrait refusal carries; a remote refusal's message is kept without repeating it. */
const REFUSAL_PREFIX = 'Upstream service call failed: ';

/** Sends one JSON call to the platform at `path` (under the channel's base URL) and returns its answer. Throws UpstreamError. */
export async function platformCall(channel: ServiceChannel, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ServiceAnswer> {
  const headers: Record<string, string> = { ...channel.headers, accept: 'application/json' };
  if (channel.key !== null) headers['authorization'] = `Bearer ${channel.key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return serviceFetch({
    url: `${channel.baseUrl}${path}`,
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
    timeoutMs: channel.timeoutMs,
    idleTimeoutMs: channel.idleTimeoutMs,
    deadlineMs: channel.deadlineMs,
    secret: channel.key,
  });
}

/** The `data` of a portrait envelope; a refusal (or a status that is not 200) becomes an UpstreamError with the platform's message. */
export function portraitData(channel: ServiceChannel, answer: ServiceAnswer): Record<string, unknown> {
  const body = jsonOf(answer) as { success?: unknown; message?: unknown; data?: unknown } | undefined;
  const message = typeof body?.message === 'string' && body.message !== '' ? body.message : undefined;
  if (answer.status === 401 || answer.status === 403) {
    throw new UpstreamError(scrub(`bad channel credential: ${message ?? `HTTP ${answer.status}`}`, channel.key));
  }
  if (answer.status !== 200 || body?.success !== true || body.data === null || typeof body.data !== 'object') {
    const text = message ?? `HTTP ${answer.status} with no portrait envelope`;
    throw new UpstreamError(scrub(text.startsWith(REFUSAL_PREFIX) ? text.slice(REFUSAL_PREFIX.length) : text, channel.key));
  }
  return body.data as Record<string, unknown>;
}

/** A string field of a remote record, or an UpstreamError naming it. */
export function textField(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string' || value === '') throw new UpstreamError(`the platform's answer has no ${field}`);
  return value;
}

/** A JSON error body's message (OpenAI shape or portrait envelope), for the 3D API's errors. */
export function errorTextOf(channel: ServiceChannel, answer: ServiceAnswer): string {
  const body = jsonOf(answer) as { error?: { message?: unknown }; message?: unknown } | undefined;
  const message =
    typeof body?.error?.message === 'string' ? body.error.message : typeof body?.message === 'string' ? body.message : undefined;
  const text = `${answer.status === 401 || answer.status === 403 ? 'bad channel credential: ' : ''}${message ?? `HTTP ${answer.status}`}`;
  return scrub(text, channel.key);
}

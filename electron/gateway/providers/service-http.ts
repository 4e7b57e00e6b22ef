// One HTTP call of a portrait or 3D service channel: time limits, no redirects, a bounded answer with the key scrubbed from it, and failures as UpstreamError with the key never in the text.
import { hideSecret, keyParts } from '../../../shared/channels.ts';
import { UpstreamError } from '../errors.ts';
import { scrubBuffer } from './relay/key-scrub.ts';
import { UpstreamTimer } from './upstream-timer.ts';

/** Longest JSON answer read from a service upstream. */
export const SERVICE_JSON_LIMIT = 1024 * 1024;

/** An answer read whole: its status and bytes. */
export interface ServiceAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** What a call sends and how much of the answer it reads at most. */
export interface ServiceRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** The whole call, headers to last byte (a service answers small JSON or one file). */
  timeoutMs: number;
  /** Longest silence between two chunks of the answer (the channel's idle timeout), and the channel's deadline (the whole call gets the lower of it and `timeoutMs`). */
  idleTimeoutMs: number;
  deadlineMs: number;
  /** Largest answer read (default SERVICE_JSON_LIMIT); a longer one is an UpstreamError. */
  limit?: number;
  /** Removed from every error text (the channel's key). */
  secret?: string | null;
}

/** Sends the request and reads the answer whole (the key, in any encoding, replaced by its hint), within the time limits; never follows a redirect. Throws UpstreamError. */
export async function serviceFetch(request: ServiceRequest): Promise<ServiceAnswer> {
  const limit = request.limit ?? SERVICE_JSON_LIMIT;
  const controller = new AbortController();
  const whole = Math.min(request.timeoutMs, request.deadlineMs);
  const timer = new UpstreamTimer({ timeoutMs: whole, idleTimeoutMs: request.idleTimeoutMs, deadlineMs: whole }, controller);
  const where = new URL(request.url).origin;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined && { body: request.body }),
      redirect: 'manual',
      signal: controller.signal,
    });
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) {
      await response.body?.cancel();
      throw new UpstreamError(`the answer of ${where} is larger than ${limit} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of timer.read<Uint8Array>(response.body ?? emptyBody())) {
      size += chunk.byteLength;
      if (size > limit) {
        controller.abort();
        throw new UpstreamError(`the answer of ${where} is larger than ${limit} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
    return { status: response.status, headers: response.headers, bytes: scrubBuffer(Buffer.concat(chunks), ...keyParts(request.secret)) };
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    const text = timer.expired ? `no answer from ${where}: ${timer.expired.message}` : `cannot reach ${where}: ${causeOf(error)}`;
    throw new UpstreamError(scrub(text, request.secret));
  } finally {
    timer.stop();
  }
}

/** The answer as JSON, or undefined when it is not JSON. */
export function jsonOf(answer: ServiceAnswer): unknown {
  try {
    return JSON.parse(answer.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** `text` with the key hidden (its hint instead), and each half of an `AK:SK` pair too (an upstream may echo the access key id alone). */
export function scrub(text: string, secret: string | null | undefined): string {
  return hideSecret(text, secret);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** A body of no bytes (an answer without one). */
async function* emptyBody(): AsyncGenerator<Uint8Array> {}

// A request's normal form, the one rule recording and replay share: method, path (chat: the neutral request, the same from every client protocol), model, stream, and the body without its volatile fields; its key is the SHA-256 of its canonical JSON.
import { createHash } from 'node:crypto';
import type { CassetteRequest } from '../../../../shared/cassette.ts';
import { chatOf, endpointOf } from '../fixtures/request-terms.ts';
import type { RecordedCall } from '../types.ts';
import { dropPath } from './json-paths.ts';

/** Top-level body fields that differ between runs of the same test and are never matched on (documented in docs/record-replay.md). */
export const VOLATILE_FIELDS = [
  'id',
  'request_id',
  'user',
  'metadata',
  'stream_options',
  'created',
  'timestamp',
  'prompt_cache_key',
  'safety_identifier',
] as const;

/** The path every chat cassette is matched under, whatever protocol recorded it. */
export const CHAT_PATH = 'chat';

/** The endpoints matched as their neutral chat request, so a cassette of one replays to a client of another. */
const NEUTRAL_CHAT: ReadonlySet<string> = new Set(['chat-completions', 'messages', 'generate-content', 'responses']);

/**
 * The normal form and key of `call`; `ignore` adds JSON paths (in the normal form's `body`: the raw body, or for chat the
 * neutral request) dropped before the key is taken.
 */
export function normalRequest(call: RecordedCall, ignore: readonly string[] = []): CassetteRequest {
  const body = withoutVolatile(call.body);
  // The model as the request names it (the tap and the selector see the same request, so they read it the same way).
  const model = modelNamed(call.path, call.body) ?? call.model;
  const endpoint = endpointOf({ protocol: call.protocol, endpoint: call.endpoint });
  let chat: unknown;
  if (endpoint && NEUTRAL_CHAT.has(endpoint) && call.body !== undefined) {
    try {
      chat = chatOf(endpoint, body, model ?? '');
    } catch {
      chat = undefined; // a body its codec refuses is matched as it is
    }
  }
  const matched: unknown = chat === undefined ? body : withoutDefaults(JSON.parse(JSON.stringify(chat)) as Record<string, unknown>);
  const normal = ignoring(
    {
      method: call.method.toUpperCase(),
      path: chat === undefined ? call.path : CHAT_PATH,
      model,
      stream: call.stream,
      ...(matched !== undefined && { body: matched }),
    },
    ignore,
  );
  return {
    method: call.method.toUpperCase(),
    path: call.path,
    model,
    ...(call.body !== undefined && { body: call.body }),
    normal,
    key: keyOf(normal),
    stream: call.stream,
  };
}

/** A normal form without what the `ignore` paths name in its body. */
export function ignoring(normal: unknown, ignore: readonly string[]): unknown {
  if (ignore.length === 0 || typeof normal !== 'object' || normal === null) return normal;
  const form = normal as { body?: unknown };
  if (form.body === undefined) return normal;
  let body: unknown = form.body;
  for (const field of ignore) body = dropPath(body, field);
  return { ...form, body };
}

/** The key of a normal form: the hex SHA-256 of its canonical JSON. */
export function keyOf(normal: unknown): string {
  return createHash('sha256').update(canonicalJson(normal)).digest('hex');
}

/**
 * The neutral request without the fields some protocols fill in with their default and others leave out (a plain text
 * format, one choice), so one chat recorded from an Anthropic client matches the same chat from an OpenAI one.
 */
function withoutDefaults(chat: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...chat };
  if (JSON.stringify(copy['format']) === '{"type":"text"}') delete copy['format'];
  if (copy['n'] === 1) delete copy['n'];
  return copy;
}

/** The model a request names: Gemini's `models/{model}:method` path, else the body's `model`. */
export function modelNamed(path: string, body: unknown): string | null {
  const fromPath = /\/models\/([^/:]+):/.exec(path);
  if (fromPath) {
    try {
      return decodeURIComponent(fromPath[1]!);
    } catch {
      return fromPath[1]!;
    }
  }
  const model = (body as { model?: unknown } | null | undefined)?.model;
  return typeof model === 'string' && model !== '' ? model : null;
}

function withoutVolatile(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of VOLATILE_FIELDS) delete copy[field];
  return copy;
}

/** JSON with object keys sorted at every depth, so equal values have equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

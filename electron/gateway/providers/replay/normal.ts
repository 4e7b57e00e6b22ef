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

/**
 * The normal form and key of `call`; `ignore` adds JSON paths (in the normal form's `body`: the raw body, or for chat the
 * neutral request) dropped before the key is taken.
 */
export function normalRequest(call: RecordedCall, ignore: readonly string[] = []): CassetteRequest {
  const body = withoutVolatile(call.body);
  const endpoint = endpointOf({ protocol: call.protocol, endpoint: call.endpoint });
  let chat: unknown;
  if (endpoint && call.body !== undefined) {
    try {
      chat = chatOf(endpoint, body, call.model ?? '');
    } catch {
      chat = undefined; // a body its codec refuses is matched as it is
    }
  }
  let matched: unknown = chat === undefined ? body : JSON.parse(JSON.stringify(chat));
  for (const field of ignore) matched = dropPath(matched, field);
  const normal = {
    method: call.method.toUpperCase(),
    path: chat === undefined ? call.path : CHAT_PATH,
    model: call.model,
    stream: call.stream,
    ...(matched !== undefined && { body: matched }),
  };
  return {
    method: call.method.toUpperCase(),
    path: call.path,
    model: call.model,
    ...(call.body !== undefined && { body: call.body }),
    normal,
    key: createHash('sha256').update(canonicalJson(normal)).digest('hex'),
    stream: call.stream,
  };
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

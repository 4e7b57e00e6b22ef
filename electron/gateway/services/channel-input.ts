// Checks a channel's fields, each failure a 400 naming the field: name, kind, base URL, numbers, extra headers, key; and the shape of an admin API body.
import {
  CHANNEL_APIS,
  CHANNEL_COMPATS,
  CHANNEL_KINDS,
  type ChannelApiName,
  type ChannelCompatName,
  type ChannelInput,
  type ChannelKindName,
} from '../../../shared/channels.ts';
import { invalid } from '../errors.ts';
import { splitAccessKey } from '../protocols/volcengine/signature.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const KEY_LIMIT = 4096;
const HEADER_VALUE_LIMIT = 2048;
const HEADER_COUNT_LIMIT = 20;

/**
 * Headers a channel may not set: credentials (the key goes to the secret store, never into SQLite) and the ones
 * the HTTP client owns.
 */
const RESERVED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
]);

/** Integer fields: their bounds. */
export const CHANNEL_NUMBER_LIMITS = {
  priority: { min: -1_000_000, max: 1_000_000 },
  weight: { min: 1, max: 1_000_000 },
  timeout_ms: { min: 100, max: 3_600_000 },
  idle_timeout_ms: { min: 100, max: 3_600_000 },
  deadline_ms: { min: 100, max: 86_400_000 },
} as const;

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (!NAME.test(trimmed))
    throw invalid(
      `name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; got "${trimmed.slice(0, 80)}"`,
      'name',
    );
  return trimmed;
}

export function checkKind(kind: string): ChannelKindName {
  if (!(CHANNEL_KINDS as readonly string[]).includes(kind))
    throw invalid(`kind must be one of ${CHANNEL_KINDS.join(', ')}; got "${kind.slice(0, 40)}"`, 'kind');
  return kind as ChannelKindName;
}

/** The chat API of an `openai` channel (`chat` or `responses`); other kinds take none. */
export function checkApi(kind: string, api: string | undefined, previous: string | null | undefined): ChannelApiName | null {
  if (kind !== 'openai') {
    if (api !== undefined) throw invalid(`api applies to openai channels only (this one is ${kind})`, 'api');
    return null;
  }
  if (api === undefined) return (previous as ChannelApiName | null | undefined) ?? 'chat';
  if (!(CHANNEL_APIS as readonly string[]).includes(api))
    throw invalid(`api must be one of ${CHANNEL_APIS.join(', ')}; got "${api.slice(0, 40)}"`, 'api');
  return api as ChannelApiName;
}

/** The compatibility profile of an `openai` channel (`openai` or `compatible`; `auto` or empty: null, from the base URL); other kinds take none. */
export function checkCompat(kind: string, compat: string | undefined, previous: string | null | undefined): ChannelCompatName | null {
  if (kind !== 'openai') {
    if (compat !== undefined && compat !== '' && compat !== 'auto')
      throw invalid(`compat applies to openai channels only (this one is ${kind})`, 'compat');
    return null;
  }
  if (compat === undefined) return (previous as ChannelCompatName | null | undefined) ?? null;
  if (compat === '' || compat === 'auto') return null;
  if (!(CHANNEL_COMPATS as readonly string[]).includes(compat))
    throw invalid(`compat must be one of auto, ${CHANNEL_COMPATS.join(', ')}; got "${compat.slice(0, 40)}"`, 'compat');
  return compat as ChannelCompatName;
}

/** Why a plain-http base URL is refused: the rule, as the error states it. */
const PLAIN_HTTP_RULE =
  'must use https (plain http only to this machine: localhost, 127.x.x.x or [::1]; not other .localhost names, link-local, private or public hosts)';

/** An https URL, or http to this machine's loopback (a local Ollama); no credentials, query or fragment. Returned without a trailing slash. */
export function normalizeBaseUrl(text: string): string {
  const shown = text.trim().slice(0, 200);
  const bad = (why: string) =>
    invalid(
      `base_url ${why}, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; got "${shown.replace(/\/\/[^/@]*@/, '//…@')}"`,
      'base_url',
    );
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw bad('must be an absolute URL');
  }
  if (url.username !== '' || url.password !== '') throw bad('must not carry a user name or password (give the key with --key-stdin)');
  if (url.search !== '' || url.hash !== '') throw bad('must not have a query or fragment');
  if (url.protocol === 'http:') {
    if (!isLoopbackLiteral(url.hostname)) throw bad(PLAIN_HTTP_RULE);
  } else if (url.protocol !== 'https:') {
    throw bad('must be an https URL');
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * True for a URL host (as `URL` normalizes it) that can only mean this machine's loopback: `localhost` itself, a
 * 127.0.0.0/8 literal, `[::1]` or the IPv4-mapped form of a 127 address. Other `.localhost` names are refused: they reach
 * loopback only when the resolver says so. Plain http to anything else would send the channel's key readable on the way.
 */
export function isLoopbackLiteral(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}

/** Whether a (checked) base URL names this machine's loopback (see isLoopbackLiteral). */
export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    return isLoopbackLiteral(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

export function checkInteger(field: keyof typeof CHANNEL_NUMBER_LIMITS, value: number): number {
  const { min, max } = CHANNEL_NUMBER_LIMITS[field];
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw invalid(`${field} must be a whole number from ${min} to ${max}; got ${String(value).slice(0, 40)}`, field);
  return value;
}

/** Checks extra headers (names as HTTP allows, no credentials, values on one line); names are kept as given. */
export function checkHeaders(headers: Record<string, string>): Record<string, string> {
  const entries = Object.entries(headers);
  if (entries.length > HEADER_COUNT_LIMIT) throw invalid(`headers: at most ${HEADER_COUNT_LIMIT} extra headers`, 'headers');
  const seen = new Set<string>();
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) throw invalid(`headers: "${name.slice(0, 100)}" is not a valid header name`, 'headers');
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower))
      throw invalid(
        `headers: ${name} cannot be an extra header (${lower === 'authorization' || lower.includes('key') ? 'the key goes to the secret store: give it with --key-stdin or --key-env' : 'the HTTP client sets it'})`,
        'headers',
      );
    if (seen.has(lower)) throw invalid(`headers: ${name} is given twice`, 'headers');
    seen.add(lower);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > HEADER_VALUE_LIMIT)
      throw invalid(`headers: the value of ${name} must be one line of at most ${HEADER_VALUE_LIMIT} characters`, 'headers');
    out[name] = value.trim();
  }
  return out;
}

/** `Name: value` (as curl takes it) into a name and value. */
export function parseHeaderLine(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0) throw invalid(`headers: "${line.slice(0, 100)}" must look like 'Name: value'`, 'headers');
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}

/** Region and project names: letters, digits, `.`, `_` and `-`, as Volcengine spells them. */
const OPTION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkOption(field: 'region' | 'project', value: string): string {
  const trimmed = value.trim();
  if (!OPTION.test(trimmed))
    throw invalid(`${field} must be 1 to 64 letters, digits, ".", "_" or "-"; got "${trimmed.slice(0, 80)}"`, field);
  return trimmed;
}

/** A `volcengine` key is the account's `AK:SK` (access key id, a colon, secret access key); other kinds take any key. The message never repeats it. */
export function checkServiceKey(kind: string, key: string): string {
  if (kind !== 'volcengine') return key;
  if (!splitAccessKey(key))
    throw invalid('key of a volcengine channel must be AK:SK (the access key id, a colon, the secret access key)', 'key');
  return key;
}

/** A key: one line, no spaces or control characters. The message never repeats it. */
export function checkKey(key: string): string {
  const trimmed = key.trim();
  if (trimmed === '') throw invalid('key is empty', 'key');
  if (trimmed.length > KEY_LIMIT) throw invalid(`key is longer than ${KEY_LIMIT} characters`, 'key');
  if (/[\s\p{Cc}]/u.test(trimmed)) throw invalid('key must not contain spaces, line breaks or control characters', 'key');
  return trimmed;
}

/** The shape of an admin API channel body: each present field of the right JSON type (values are checked by the service). */
export function readChannelInput(body: unknown): ChannelInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('Request body must be a JSON object');
  const fields = body as Record<string, unknown>;
  const input: ChannelInput = {};
  const text = (name: 'name' | 'kind' | 'base_url' | 'models' | 'api' | 'compat' | 'region' | 'project') => {
    const value = fields[name];
    if (value === undefined) return;
    if (typeof value !== 'string') throw invalid(`${name} must be a string`, name);
    input[name] = value as never;
  };
  text('name');
  text('kind');
  text('base_url');
  text('models');
  text('region');
  text('project');
  text('api');
  text('compat');
  for (const name of ['priority', 'weight', 'timeout_ms', 'idle_timeout_ms', 'deadline_ms'] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== 'number') throw invalid(`${name} must be a number`, name);
    input[name] = value;
  }
  if (fields['enabled'] !== undefined) {
    if (typeof fields['enabled'] !== 'boolean') throw invalid('enabled must be true or false', 'enabled');
    input.enabled = fields['enabled'];
  }
  const headers = fields['headers'];
  if (headers !== undefined) {
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
      throw invalid('headers must be an object of header names to values', 'headers');
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string') throw invalid(`headers: the value of ${name.slice(0, 100)} must be a string`, 'headers');
    }
    input.headers = headers as Record<string, string>;
  }
  const key = fields['key'];
  if (key !== undefined) {
    if (key !== null && typeof key !== 'string') throw invalid('key must be a string (or null to remove it)', 'key');
    input.key = key;
  }
  return input;
}

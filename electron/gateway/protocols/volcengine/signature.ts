// Volcengine's OpenAPI request signature (HMAC-SHA256 over a canonical request, a key derived from the secret key, date, region and service).
import { createHash, createHmac } from 'node:crypto';

/** The algorithm name in the Authorization header and the string to sign. */
export const VOLC_ALGORITHM = 'HMAC-SHA256';

/** What is signed: the method, the URL (path and query), the headers to sign (lowercase names) and the body. */
export interface VolcRequest {
  method: string;
  url: URL;
  /** Every header to sign, names lowercase (`host` and `x-date` at least; `x-content-sha256` and `content-type` as sent). */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** The account and scope a request is signed for. */
export interface VolcCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding: everything but unreserved characters as %XX (upper case). */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `x-date` of a time: `YYYYMMDDTHHMMSSZ` in UTC. */
export function volcDate(time: Date): string {
  return time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The canonical request: method, path, sorted encoded query, sorted headers, their names, the body's SHA-256. */
export function canonicalRequest(request: VolcRequest): string {
  const query = [...request.url.searchParams.entries()]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const names = Object.keys(request.headers).sort();
  const headers = names.map((name) => `${name}:${request.headers[name]!.trim()}\n`).join('');
  return [request.method.toUpperCase(), request.url.pathname || '/', query, headers, names.join(';'), sha256Hex(request.body)].join('\n');
}

/** The string to sign: algorithm, request date, credential scope and the canonical request's hash. */
export function stringToSign(canonical: string, xDate: string, scope: string): string {
  return [VOLC_ALGORITHM, xDate, scope, sha256Hex(canonical)].join('\n');
}

/** The signing key: HMAC chain of the secret key over the day, region, service and the word `request`. */
export function signingKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(secretAccessKey, day), region), service), 'request');
}

/** The hex signature and the Authorization header value of a request whose headers carry its `x-date`. */
export function signRequest(request: VolcRequest, credentials: VolcCredentials): { signature: string; authorization: string } {
  const xDate = request.headers['x-date'];
  if (!xDate) throw new Error('the request to sign has no x-date header');
  const day = xDate.slice(0, 8);
  const scope = `${day}/${credentials.region}/${credentials.service}/request`;
  const toSign = stringToSign(canonicalRequest(request), xDate, scope);
  const signature = createHmac('sha256', signingKey(credentials.secretAccessKey, day, credentials.region, credentials.service))
    .update(toSign)
    .digest('hex');
  const signed = Object.keys(request.headers).sort().join(';');
  return {
    signature,
    authorization: `${VOLC_ALGORITHM} Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
}

/** The headers to send for a JSON POST: host, content type, date, body hash and Authorization. */
export function signedJsonHeaders(url: URL, body: string, credentials: VolcCredentials, now: Date): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    host: url.host,
    'x-content-sha256': sha256Hex(body),
    'x-date': volcDate(now),
  };
  const { authorization } = signRequest({ method: 'POST', url, headers, body }, credentials);
  return { ...headers, authorization };
}

/** A channel key `AK:SK` split at its first colon; undefined when it is not one. */
export function splitAccessKey(key: string | null): { accessKeyId: string; secretAccessKey: string } | undefined {
  const colon = key?.indexOf(':') ?? -1;
  if (!key || colon <= 0 || colon === key.length - 1) return undefined;
  return { accessKeyId: key.slice(0, colon), secretAccessKey: key.slice(colon + 1) };
}

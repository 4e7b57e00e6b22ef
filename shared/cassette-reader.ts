// The checked reader of a cassette file: every field of the format checked, a damaged one refused naming its file and field.
import {
  CASSETTE_FORMAT,
  CASSETTE_KINDS,
  CASSETTE_PROTOCOLS,
  CassetteError,
  MAX_BLOB_BYTES,
  type Cassette,
  type CassetteBlob,
  type CassetteBody,
} from './cassette.ts';
import { cassetteNameParts, isBareFileName } from './cassette-names.ts';

/** Deepest nesting of arrays and objects a cassette may have: a deeper one is refused before it is parsed (walking it could exhaust the stack). */
export const MAX_CASSETTE_DEPTH = 256;

type Json = Record<string, unknown>;

/** The deepest nesting of `[` and `{` in a JSON text (outside strings), read in one pass without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return deepest;
}

/** Reads one field at a time, naming the file and the field of the first problem. */
class Reader {
  readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
  fail(field: string, problem: string): never {
    throw new CassetteError(this.file, field, problem);
  }
  object(value: unknown, field: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'must be an object');
    return value as Json;
  }
  array(value: unknown, field: string): unknown[] {
    if (!Array.isArray(value)) this.fail(field, 'must be an array');
    return value;
  }
  string(value: unknown, field: string): string {
    if (typeof value !== 'string') this.fail(field, 'must be a string');
    return value;
  }
  optionalString(value: unknown, field: string): string | undefined {
    return value === undefined ? undefined : this.string(value, field);
  }
  count(value: unknown, field: string, min = 0): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
      this.fail(field, `must be a whole number of at least ${min}`);
    return value;
  }
  oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
    if (typeof value !== 'string' || !allowed.includes(value as T)) this.fail(field, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }
  blob(value: unknown, field: string): CassetteBlob {
    const blob = this.object(value, field);
    const file = this.string(blob['file'], `${field}.file`);
    if (!isBareFileName(file)) this.fail(`${field}.file`, 'must be a file name in the cassette\'s folder (no "/" or "..")');
    const sha256 = this.string(blob['sha256'], `${field}.sha256`);
    if (!/^[0-9a-f]{64}$/.test(sha256)) this.fail(`${field}.sha256`, 'must be 64 lower-case hex digits');
    const bytes = this.count(blob['bytes'], `${field}.bytes`);
    if (bytes > MAX_BLOB_BYTES) this.fail(`${field}.bytes`, `must be at most ${MAX_BLOB_BYTES} (the largest answer recorded)`);
    return { file, bytes, sha256 };
  }
  body(value: unknown, field: string): CassetteBody {
    const body = this.object(value, field);
    const forms = ['text', 'base64', 'blob'].filter((name) => body[name] !== undefined);
    if (forms.length !== 1) this.fail(field, 'must have exactly one of text, base64 and blob');
    if (forms[0] === 'text') return { text: this.string(body['text'], `${field}.text`) };
    if (forms[0] === 'base64') {
      const base64 = this.string(body['base64'], `${field}.base64`);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) this.fail(`${field}.base64`, 'must be base64');
      return { base64 };
    }
    return { blob: this.blob(body['blob'], `${field}.blob`) };
  }
}

/**
 * Reads a cassette file's text, checking every field this format defines (unknown fields are kept): a damaged cassette
 * throws a CassetteError naming `fileName` and the field, so it is refused whole, never served half.
 */
export function parseCassette(text: string, fileName: string): Cassette {
  const read = new Reader(fileName);
  const depth = nestingDepth(text);
  if (depth > MAX_CASSETTE_DEPTH) read.fail('', `nests ${depth} levels deep, over the ${MAX_CASSETTE_DEPTH} a cassette may`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    read.fail('', `is not JSON (${(error as Error).message})`);
  }
  const top = read.object(json, '(top)');
  if (top['format'] !== CASSETTE_FORMAT)
    read.fail('format', `must be ${CASSETTE_FORMAT} (this Gatehouse reads format ${CASSETTE_FORMAT} only)`);
  const kind = read.oneOf(top['kind'], 'kind', CASSETTE_KINDS);
  const recording = read.object(top['recording'], 'recording');
  read.string(recording['recordedAt'], 'recording.recordedAt');
  read.oneOf(recording['mode'], 'recording.mode', ['relay', 'simulate'] as const);
  read.optionalString(recording['channel'], 'recording.channel');
  read.optionalString(recording['upstreamModel'], 'recording.upstreamModel');
  read.oneOf(recording['protocol'], 'recording.protocol', CASSETTE_PROTOCOLS);
  const request = read.object(top['request'], 'request');
  read.string(request['method'], 'request.method');
  read.string(request['path'], 'request.path');
  if (request['model'] !== null) read.string(request['model'], 'request.model');
  if (!('normal' in request)) read.fail('request.normal', 'is missing');
  const key = read.string(request['key'], 'request.key');
  if (!/^[0-9a-f]{64}$/.test(key)) read.fail('request.key', 'must be 64 lower-case hex digits');
  if (typeof request['stream'] !== 'boolean') read.fail('request.stream', 'must be true or false');
  read.count(top['sequence'], 'sequence', 1);
  const parts = cassetteNameParts(fileName.split(/[/\\]/).at(-1)!);
  if (parts && !key.startsWith(parts.hash)) read.fail('request.key', 'does not match the hash in the file name (renamed or edited?)');
  if (kind === 'http') readHttp(read, top);
  else if (kind === 'realtime') readRealtime(read, top);
  else if (kind === 'portrait') readObservations(read, top, 'observations', PORTRAIT_STATUSES);
  else {
    readObservations(read, top, 'progress', TASK3D_STATUSES);
    read
      .array(top['files'], 'files')
      .forEach((file, index) => read.blob(read.object(file, `files[${index}]`)['blob'], `files[${index}].blob`));
  }
  return top as unknown as Cassette;
}

function readHttp(read: Reader, top: Json): void {
  const response = read.object(top['response'], 'response');
  const status = read.count(response['status'], 'response.status', 100);
  if (status > 599) read.fail('response.status', 'must be an HTTP status (100 to 599)');
  const headers = read.object(response['headers'], 'response.headers');
  for (const [name, value] of Object.entries(headers)) read.string(value, `response.headers.${name}`);
  read.count(response['durationMs'], 'response.durationMs');
  const hasBody = response['body'] !== undefined;
  const hasEvents = response['events'] !== undefined;
  if (hasBody === hasEvents) read.fail('response', 'must have exactly one of body and events');
  if (hasBody) read.body(response['body'], 'response.body');
  if (hasEvents)
    read.array(response['events'], 'response.events').forEach((event, index) => {
      const item = read.object(event, `response.events[${index}]`);
      read.count(item['atMs'], `response.events[${index}].atMs`);
      read.string(item['data'], `response.events[${index}].data`);
    });
  if (response['chunks'] !== undefined)
    read.array(response['chunks'], 'response.chunks').forEach((chunk, index) => {
      const item = read.object(chunk, `response.chunks[${index}]`);
      read.count(item['atMs'], `response.chunks[${index}].atMs`);
      read.count(item['bytes'], `response.chunks[${index}].bytes`);
    });
  if (top['usage'] !== undefined) {
    const usage = read.object(top['usage'], 'usage');
    read.count(usage['inputTokens'], 'usage.inputTokens');
    read.count(usage['outputTokens'], 'usage.outputTokens');
    if (usage['amountMicros'] !== undefined) read.count(usage['amountMicros'], 'usage.amountMicros');
  }
}

const PORTRAIT_STATUSES = ['Processing', 'Active', 'Failed'] as const;
const TASK3D_STATUSES = ['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'ERROR'] as const;

/** A realtime session's frames: each with its offset, its side and exactly one payload; a close, when kept. */
function readRealtime(read: Reader, top: Json): void {
  read.array(top['frames'], 'frames').forEach((value, index) => {
    const field = `frames[${index}]`;
    const frame = read.object(value, field);
    read.count(frame['atMs'], `${field}.atMs`);
    read.oneOf(frame['from'], `${field}.from`, ['client', 'upstream'] as const);
    const forms = ['text', 'textBlob', 'binary'].filter((name) => frame[name] !== undefined);
    if (forms.length !== 1) read.fail(field, 'must have exactly one of text, textBlob and binary');
    if (forms[0] === 'text') read.string(frame['text'], `${field}.text`);
    else if (forms[0] === 'textBlob') read.blob(frame['textBlob'], `${field}.textBlob`);
    else read.body(frame['binary'], `${field}.binary`);
  });
  if (top['close'] !== undefined) {
    const close = read.object(top['close'], 'close');
    read.count(close['atMs'], 'close.atMs');
    read.oneOf(close['from'], 'close.from', ['client', 'upstream'] as const);
    read.count(close['code'], 'close.code');
    read.string(close['reason'], 'close.reason');
  }
}

/** A review's or a task's observations: each with its offset (never going back) and a known status. */
function readObservations(read: Reader, top: Json, name: string, statuses: readonly string[]): void {
  let last = 0;
  read.array(top[name], name).forEach((value, index) => {
    const field = `${name}[${index}]`;
    const seen = read.object(value, field);
    const atMs = read.count(seen['atMs'], `${field}.atMs`);
    if (atMs < last) read.fail(`${field}.atMs`, 'must not go back in time');
    last = atMs;
    read.oneOf(seen['status'], `${field}.status`, statuses);
    for (const text of ['resolvedUrl', 'failureReason', 'refreshError']) read.optionalString(seen[text], `${field}.${text}`);
    if (seen['progress'] !== undefined) read.count(seen['progress'], `${field}.progress`);
  });
}

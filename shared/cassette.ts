// Cassettes: one recorded exchange per JSON file (HTTP calls, realtime sessions, portrait reviews, 3D tasks), their file names, and the reader that refuses a damaged one naming its file and field.

/** The format a cassette is written in; a reader refuses any other (a newer Gatehouse's cassette is named, never half read). */
export const CASSETTE_FORMAT = 1;

/** What a cassette holds: one HTTP exchange, one realtime session, one portrait asset's review, or one 3D task. */
export const CASSETTE_KINDS = ['http', 'realtime', 'portrait', 'task3d'] as const;
export type CassetteKind = (typeof CASSETTE_KINDS)[number];

/** The client protocol the exchange was recorded through (the gateway's inbound protocols). */
export const CASSETTE_PROTOCOLS = ['openai', 'responses', 'anthropic', 'gemini', 'realtime', 'rerank', 'portrait', 'tasks3d'] as const;
export type CassetteProtocol = (typeof CASSETTE_PROTOCOLS)[number];

/** What a miss (no cassette for the call) does under `--replay`: simulated, relayed (and recorded), or refused naming the closest cassette. */
export const REPLAY_MISS_MODES = ['simulate', 'relay', 'error'] as const;
export type ReplayMiss = (typeof REPLAY_MISS_MODES)[number];

/** The file name's suffix of every cassette; anything else in a cassette folder (blobs, notes) is not a cassette. */
export const CASSETTE_SUFFIX = '.json';

/** Characters of the request hash a file name carries (hex): 64 bits, so a folder of 10,000 cassettes has no collision to fear. */
export const CASSETTE_HASH_CHARS = 16;

/** Largest body a cassette keeps inline (text); a bigger or binary body is written to a blob beside it as it arrives. */
export const MAX_INLINE_BODY_BYTES = 256 * 1024;

/** Largest blob a cassette may name (the largest answer recorded): a cassette naming a bigger one is refused as damaged. */
export const MAX_BLOB_BYTES = 1024 * 1024 * 1024;

/** Deepest nesting of arrays and objects a cassette may have: a deeper one is refused before it is parsed (walking it could exhaust the stack). */
export const MAX_CASSETTE_DEPTH = 256;

/** Most characters of a file name's readable slug (the model and the first words of the prompt). */
export const CASSETTE_SLUG_CHARS = 60;

/** How the recording was made. */
export interface CassetteRecording {
  /** RFC 3339, when the exchange ended. */
  recordedAt: string;
  /** `relay`: a real upstream answered; `simulate`: the simulator did (`--record-simulated`). */
  mode: 'relay' | 'simulate';
  /** The channel that answered (its name, never its key); absent for a simulated answer. */
  channel?: string;
  /** The model name sent upstream (a channel may rename it); absent for a simulated answer. */
  upstreamModel?: string;
  /** The client protocol the exchange came in through. */
  protocol: CassetteProtocol;
  /** The Gatehouse version that recorded it, when known. */
  gatehouse?: string;
}

/**
 * A payload kept in a file beside the cassette (a big or binary body, a 3D model file): `file` is a bare name in the
 * cassette's folder (no `/`, no `..`), `bytes` and `sha256` (hex) let a reader refuse a blob that changed or was cut.
 */
export interface CassetteBlob {
  file: string;
  bytes: number;
  sha256: string;
}

/** A body: UTF-8 text inline, small binary inline as base64, or a blob beside the cassette. */
export type CassetteBody = { text: string } | { base64: string } | { blob: CassetteBlob };

/** The request as it was matched: what the caller sent (redactions applied), and its normal form with its key. */
export interface CassetteRequest {
  method: string;
  /** The path without the query (a Gemini `?key=` never reaches a cassette), but for Gemini's `?alt=sse`, kept. */
  path: string;
  /** The model the caller named; null when the call names none. */
  model: string | null;
  /** The JSON body as sent (redacted); absent for a multipart or bodyless call. */
  body?: unknown;
  /**
   * The normal form replay matches on: method, path (chat: the neutral request, the same for every client protocol), model
   * and body with the volatile fields dropped. Kept so a miss can name the first field that differs.
   */
  normal: unknown;
  /** The hex SHA-256 of the normal form's canonical JSON (its first CASSETTE_HASH_CHARS are in the file name). */
  key: string;
  /** Whether the caller asked for a stream (part of the normal form too). */
  stream: boolean;
}

/** One piece of a streamed answer as it was written to the caller, `atMs` after the request arrived. */
export interface CassetteEvent {
  atMs: number;
  /** The piece as UTF-8 text (an SSE frame, a piece of Gemini's JSON array). */
  data: string;
}

/** Usage as the gateway charged it (summed over the call's charges), so a replay bills the same. */
export interface CassetteUsage {
  inputTokens: number;
  outputTokens: number;
  /** What the recording run charged, for information (a replay charges at the replaying gateway's prices). */
  amountMicros?: number;
}

/** An HTTP answer: status, the headers that matter to a client, and the body whole or as timed events. */
export interface CassetteHttpResponse {
  status: number;
  /** Lower-case names; per-request and hop-by-hop headers (date, x-request-id, content-length…) and redacted ones left out. */
  headers: Record<string, string>;
  /** A whole answer (exactly one of `body` and `events` is set). */
  body?: CassetteBody;
  /** A streamed answer: each piece as written, with its offset. */
  events?: CassetteEvent[];
  /** A stream kept as a blob (too big for inline events): each write's size and offset, in order. */
  chunks?: { atMs: number; bytes: number }[];
  /** From the request's arrival to the answer's last byte. */
  durationMs: number;
}

interface CassetteBase {
  format: typeof CASSETTE_FORMAT;
  recording: CassetteRecording;
  request: CassetteRequest;
  /** 1 for the first recording of a request, 2 for the next identical one…: replayed in this order. */
  sequence: number;
}

/** One HTTP exchange: chat in every protocol (streamed or not), embeddings, images, speech, the other relayed endpoints. */
export interface HttpCassette extends CassetteBase {
  kind: 'http';
  response: CassetteHttpResponse;
  usage?: CassetteUsage;
}

/** One frame of a realtime session, `atMs` after the upstream session opened: exactly one of `text`, `textBlob` (a big text frame) and `binary`. */
export interface RealtimeFrame {
  atMs: number;
  /** `client`: as the client sent it; `upstream`: as the client got it (the model renamed back, the channel key hidden). */
  from: 'client' | 'upstream';
  text?: string;
  textBlob?: CassetteBlob;
  binary?: CassetteBody;
}

/** A realtime session (`GET /v1/realtime`, keyed by its model): the frames both ways with their offsets, and who closed it first. */
export interface RealtimeCassette extends CassetteBase {
  kind: 'realtime';
  frames: RealtimeFrame[];
  close?: { atMs: number; from: 'client' | 'upstream'; code: number; reason: string };
  /** The usage of its `response.done` events, summed (for information: a replay bills each response as it passes). */
  usage?: CassetteUsage;
}

/** What a portrait reviewer answered at one check, `atMs` after the registration on the gateway's clock; a check that failed has `refreshError`. */
export interface PortraitObservation {
  atMs: number;
  status: 'Processing' | 'Active' | 'Failed';
  resolvedUrl?: string;
  failureReason?: string;
  /** The check failed (the status was kept): the upstream's error. */
  refreshError?: string;
}

/** A portrait asset's review (keyed by its registration: url, asset_type, name): what the reviewer said over time, to its final verdict. */
export interface PortraitCassette extends CassetteBase {
  kind: 'portrait';
  observations: PortraitObservation[];
}

/** A 3D task's state at one check, `atMs` after its creation on the gateway's clock; `ERROR`: the check failed (`failureReason` says why). */
export interface Task3dObservation {
  atMs: number;
  status: 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE' | 'ERROR';
  progress?: number;
  failureReason?: string;
}

/** A 3D task (keyed by its creation's body): its course to its end, its usage, and its result file saved beside the cassette. */
export interface Task3dCassette extends CassetteBase {
  kind: 'task3d';
  progress: Task3dObservation[];
  files: { name: string; contentType?: string; blob: CassetteBlob }[];
  usage?: CassetteUsage;
}

export type Cassette = HttpCassette | RealtimeCassette | PortraitCassette | Task3dCassette;

/** What the journal is told of a replayed call (`noteReplay`): which cassette answered. */
export interface CassetteReplayNote {
  /** The cassette's file name in its folder. */
  file: string;
  /** Its sequence among identical requests. */
  sequence: number;
  recordedAt: string;
  /** Recorded through another client protocol and rendered through the caller's (chat only). */
  translatedFrom?: CassetteProtocol;
}

/** `--record DIR` and its companions, as the gateway config takes them. */
export interface RecordConfig {
  dir: string;
  /** Also record what the simulator answered (`--record-simulated`); default only relayed exchanges. */
  simulated?: boolean;
  /** JSON paths (`$.user`, `messages[0].content`) or header names (`x-team`) whose values never reach a cassette. */
  redact?: readonly string[];
}

/** `--replay DIR` and its companions, as the gateway config takes them. */
export interface ReplayConfig {
  dir: string;
  /** Default `simulate`. */
  miss?: ReplayMiss;
  /** JSON paths ignored when matching, on top of the volatile fields. */
  ignore?: readonly string[];
  /** 1: recorded timing (default); 2: twice as fast; 0: as fast as possible. */
  speed?: number;
}

/** A cassette that cannot be read: the file and the field, so the user can find it. */
export class CassetteError extends Error {
  override readonly name = 'CassetteError';
  readonly file: string;
  readonly field: string;
  constructor(file: string, field: string, problem: string) {
    super(`${file}${field ? ` ${field}` : ''}: ${problem}`);
    this.file = file;
    this.field = field;
  }
}

/** Lower-case words of `text` joined by `-`, at most `max` characters (cut at a word end where it can be). */
export function cassetteSlug(text: string, max: number = CASSETTE_SLUG_CHARS): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug || 'call';
  const cut = slug.slice(0, max);
  const end = cut.lastIndexOf('-');
  return (end > max / 2 ? cut.slice(0, end) : cut).replace(/-+$/, '') || 'call';
}

/**
 * The file name of a cassette: a slug of the model and the first words of the prompt, the request key's first
 * CASSETTE_HASH_CHARS, and from the second recording of the same request on its sequence:
 * `gpt-4o-say-hello-in-three-words.3f9a1c2b7d4e5f60.json`, then `….3f9a1c2b7d4e5f60.2.json`.
 */
export function cassetteFileName(key: string, model: string | null, prompt: string | undefined, sequence: number): string {
  const words = (prompt ?? '').split(/\s+/).filter(Boolean).slice(0, 8).join(' ');
  const slug = cassetteSlug([model ?? '', words].filter(Boolean).join(' '));
  return `${slug}.${key.slice(0, CASSETTE_HASH_CHARS)}${sequence > 1 ? `.${sequence}` : ''}${CASSETTE_SUFFIX}`;
}

/** The hash prefix and sequence a cassette's file name carries, or undefined for a file that is not named as a cassette. */
export function cassetteNameParts(fileName: string): { hash: string; sequence: number } | undefined {
  const match = new RegExp(`\\.([0-9a-f]{${CASSETTE_HASH_CHARS}})(?:\\.(\\d{1,6}))?\\${CASSETTE_SUFFIX}$`).exec(fileName);
  if (!match) return undefined;
  return { hash: match[1]!, sequence: match[2] === undefined ? 1 : Number(match[2]) };
}

/** Whether `name` may be a blob's file name: a bare name in the cassette's folder. */
export function isBareFileName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && name.length <= 255;
}

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

// The OpenAI Batch shape: a create body checked, the lines of an input file read one by one (a bad line is an error line, never a failure of the batch), and the output and error lines written.
import { invalid } from '../../../errors.ts';
import { absent, asObject, isObject, objectBody, requiredString } from '../../fields.ts';
import { metadataOf } from '../../metadata.ts';
import { EXPIRES_AFTER_SECONDS } from './files.ts';

/** The endpoints a batch may run in simulate mode. */
export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/embeddings', '/v1/responses', '/v1/moderations'] as const;

export type BatchEndpoint = (typeof BATCH_ENDPOINTS)[number];

/** A create call, checked. */
export interface BatchCreate {
  inputFileId: string;
  endpoint: BatchEndpoint;
  completionWindow: '24h';
  metadata: Record<string, string> | null;
  /** Seconds the output and error files live; absent: the gateway's default. */
  outputExpiresAfterSeconds?: number;
}

export function parseBatchCreate(body: unknown): BatchCreate {
  const fields = objectBody(body);
  const inputFileId = requiredString(fields, 'input_file_id');
  const endpoint = requiredString(fields, 'endpoint');
  if (!(BATCH_ENDPOINTS as readonly string[]).includes(endpoint)) {
    throw invalid(`Invalid value for 'endpoint': '${endpoint}'. Supported: ${BATCH_ENDPOINTS.join(', ')}.`, 'endpoint');
  }
  const window = requiredString(fields, 'completion_window');
  if (window !== '24h') throw invalid("Invalid value for 'completion_window': only '24h' is supported.", 'completion_window');
  const metadata = absent(fields, 'metadata') ? null : metadataOf(fields['metadata']);
  let outputExpiresAfterSeconds: number | undefined;
  if (!absent(fields, 'output_expires_after')) {
    const expires = asObject(fields['output_expires_after'], 'output_expires_after');
    if (expires['anchor'] !== 'created_at') {
      throw invalid("Invalid value for 'output_expires_after.anchor': expected 'created_at'.", 'output_expires_after.anchor');
    }
    const seconds = expires['seconds'];
    if (
      typeof seconds !== 'number' ||
      !Number.isInteger(seconds) ||
      seconds < EXPIRES_AFTER_SECONDS.min ||
      seconds > EXPIRES_AFTER_SECONDS.max
    ) {
      throw invalid(
        `Invalid value for 'output_expires_after.seconds': expected an integer from ${EXPIRES_AFTER_SECONDS.min} to ${EXPIRES_AFTER_SECONDS.max}.`,
        'output_expires_after.seconds',
      );
    }
    outputExpiresAfterSeconds = seconds;
  }
  return {
    inputFileId,
    endpoint: endpoint as BatchEndpoint,
    completionWindow: '24h',
    metadata,
    ...(outputExpiresAfterSeconds !== undefined && { outputExpiresAfterSeconds }),
  };
}

/** One request line of an input file, or why it cannot be run (its custom id when it had one). */
export type BatchLine =
  | { ok: true; customId: string; url: BatchEndpoint; body: Record<string, unknown> }
  | { ok: false; customId: string | null; code: string; message: string };

/** Reads one line (`{custom_id, method: "POST", url, body}`) of a batch for `endpoint`. */
export function parseBatchLine(text: string, endpoint: BatchEndpoint): BatchLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, customId: null, code: 'invalid_json_line', message: 'This line is not parseable as valid JSON.' };
  }
  if (!isObject(value)) return { ok: false, customId: null, code: 'invalid_request', message: 'A line must be a JSON object.' };
  const customId = typeof value['custom_id'] === 'string' ? value['custom_id'] : null;
  const fail = (code: string, message: string): BatchLine => ({ ok: false, customId, code, message });
  if (customId === null) return fail('missing_required_parameter', "Missing required parameter: 'custom_id'.");
  if (value['method'] !== 'POST') return fail('invalid_method', "Invalid 'method': only POST is supported.");
  if (value['url'] !== endpoint) return fail('mismatched_endpoint', `The line's 'url' must be the batch's endpoint, ${endpoint}.`);
  if (!isObject(value['body'])) return fail('missing_required_parameter', "Missing required parameter: 'body' (an object).");
  return { ok: true, customId, url: endpoint, body: value['body'] };
}

/** The output line of a line that was answered (any HTTP status). */
export function answeredLine(id: string, customId: string, status: number, requestId: string, body: unknown) {
  return { id, custom_id: customId, response: { status_code: status, request_id: requestId, body }, error: null };
}

/** The error line of a line that could not be sent (bad JSON, wrong url, …). */
export function unsentLine(id: string, customId: string | null, code: string, message: string) {
  return { id, custom_id: customId, response: null, error: { code, message } };
}

/** An error of the batch itself (`errors.data[]`). */
export function batchError(code: string, message: string, line: number | null = null) {
  return { code, message, param: null, line };
}

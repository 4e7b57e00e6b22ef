// Reads a multipart/form-data body part by part; a malformed body (bad boundary, truncated part) is a 400 in the caller's protocol, never the parser's 500.
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { GatewayError, invalid } from '../errors.ts';

/** Longest multipart boundary accepted (RFC 2046 allows 1 to 70 characters). */
export const MAX_BOUNDARY_LENGTH = 70;

/** Most parts (files and fields together) one form may hold; past it the plugin answers 413. */
export const MAX_FORM_PARTS = 64;
/** Longest text field of a form, in bytes (a prompt of 32,000 characters fits); a longer one is a 413 naming the field. */
export const MAX_FORM_FIELD_BYTES = 256 * 1024;

/** The multipart plugin's limits for a route that takes at most `files` files of at most `fileSize` bytes each. */
export function formLimits(files: number, fileSize: number) {
  return { files, fileSize, parts: MAX_FORM_PARTS, fields: MAX_FORM_PARTS, fieldSize: MAX_FORM_FIELD_BYTES };
}

/** One part of a form, read whole. */
export type FormPart = { kind: 'file'; field: string; filename: string; bytes: Buffer } | { kind: 'field'; field: string; value: unknown };

/** Which parts to read. */
export interface FormOptions {
  /** False for a file field the route does not use: its bytes are drained unread. All files are read by default. */
  keepFile?: (field: string) => boolean;
}

/** The boundary parameter of a content type, or undefined when there is none. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Yields each part with its bytes read (files the route does not keep are drained, not yielded). Failures of the multipart parser (a missing or overlong boundary,
 * a truncated header or part) become a 400; the plugin's own limit errors keep their 4xx status.
 */
export async function* formParts(request: FastifyRequest, options: FormOptions = {}): AsyncGenerator<FormPart> {
  yield* readParts(rawFormParts(request), options);
}

/**
 * The parts of `request` as the multipart plugin gives them (a file must be read or drained before the next part comes), after the
 * boundary and field length checks; parser failures are mapped as `formParts` says.
 */
export async function* rawFormParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  const boundary = boundaryOf(request.headers['content-type']);
  if (!boundary || boundary.length > MAX_BOUNDARY_LENGTH) {
    throw invalid(`A multipart/form-data body needs a boundary parameter of 1 to ${MAX_BOUNDARY_LENGTH} characters in its Content-Type.`);
  }
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' && part.valueTruncated) {
        throw new GatewayError(
          'payload_too_large',
          `Form field '${part.fieldname}' is longer than ${MAX_FORM_FIELD_BYTES} bytes.`,
          part.fieldname,
        );
      }
      yield part;
    }
  } catch (error) {
    throw malformed(error);
  }
}

/** The parts of `raw` with their bytes read, as `formParts` yields them. */
export async function* readParts(raw: AsyncIterable<Multipart>, options: FormOptions = {}): AsyncGenerator<FormPart> {
  for await (const part of raw) {
    if (part.type !== 'file') yield { kind: 'field', field: part.fieldname, value: part.value };
    else if (options.keepFile?.(part.fieldname) === false) part.file.resume();
    else yield { kind: 'file', field: part.fieldname, filename: part.filename, bytes: await readFile(part) };
  }
}

/** The whole bytes of a file part (within the plugin's file size limit). */
export async function readFile(part: MultipartFile): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (error) {
    throw malformed(error);
  }
}

/** A multipart parser failure as the caller sees it: the plugin's limits keep their 4xx, anything else is a 400 naming the problem. */
export function malformed(error: unknown): unknown {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new GatewayError('payload_too_large', `A multipart/form-data body may hold at most ${MAX_FORM_PARTS} parts.`);
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  return invalid(`Malformed multipart/form-data body: ${error instanceof Error ? error.message : String(error)}`);
}

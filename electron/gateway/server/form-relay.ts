// A multipart form read up to its `model` field, then either read whole for the simulator or streamed on to a relay channel part by part as it arrives.
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import { malformed, rawFormParts, readFile, readParts, type FormOptions, type FormPart } from './multipart.ts';

/** A part read before the model was known (kept to be replayed). */
type HeldPart =
  { kind: 'field'; field: string; value: unknown } | { kind: 'file'; field: string; filename: string; type: string; bytes: Buffer };

const CRLF = '\r\n';

/**
 * Reads a form's parts in order until its `model` field, so the route can choose simulate or relay before the rest arrives.
 * Parts before the model (a file sent ahead of it, too) are held whole, within the multipart plugin's limits; the rest is
 * either read whole (`parts()`, the simulator) or piped upstream chunk by chunk (`upstream()`, relay), never both.
 */
export class FormRelay {
  /** The text fields seen so far (all of them once the form was read or sent), for billing. */
  readonly fields: Record<string, unknown> = {};
  private readonly raw: AsyncIterator<Multipart>;
  private readonly held: HeldPart[] = [];
  private readonly maxFileBytes: number;
  private failure: unknown;

  /** `maxFileBytes`: the most bytes all files of the form may hold together when relayed. */
  constructor(request: FastifyRequest, maxFileBytes: number) {
    this.raw = rawFormParts(request)[Symbol.asyncIterator]();
    this.maxFileBytes = maxFileBytes;
  }

  /** Reads up to the `model` field and returns its value; undefined when the form has none (or not as text). */
  async model(): Promise<string | undefined> {
    for (let next = await this.raw.next(); !next.done; next = await this.raw.next()) {
      const part = next.value;
      if (part.type === 'file') {
        this.held.push({ kind: 'file', field: part.fieldname, filename: part.filename, type: part.mimetype, bytes: await readFile(part) });
        continue;
      }
      this.held.push({ kind: 'field', field: part.fieldname, value: part.value });
      this.fields[part.fieldname] = part.value;
      if (part.fieldname === 'model') return typeof part.value === 'string' ? part.value : undefined;
    }
    return undefined;
  }

  /** Every part read whole, the held ones first (for the simulator). */
  async *parts(options: FormOptions = {}): AsyncGenerator<FormPart> {
    for (const part of this.held) {
      if (part.kind === 'field') yield part;
      else if (options.keepFile?.(part.field) !== false)
        yield { kind: 'file', field: part.field, filename: part.filename, bytes: part.bytes };
    }
    yield* readParts({ [Symbol.asyncIterator]: () => this.raw }, options);
  }

  /** The form as relay sends it: a fresh boundary, the model renamed to the channel's, files passed on as they arrive. */
  upstream(): { contentType: string; body(upstreamModel: string): AsyncIterable<Uint8Array> } {
    const boundary = `gatehouse-${randomBytes(16).toString('hex')}`;
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: (model) => this.encode(boundary, model) };
  }

  /** Why the form could not be sent whole (a limit, a malformed part), once the upstream call failed on it; the caller's error beats the upstream's. */
  get error(): unknown {
    return this.failure;
  }

  private async *encode(boundary: string, upstreamModel: string): AsyncGenerator<Uint8Array> {
    let fileBytes = 0;
    const count = (length: number, field: string) => {
      fileBytes += length;
      if (fileBytes > this.maxFileBytes) {
        throw new GatewayError('payload_too_large', `The files of this form are larger than ${this.maxFileBytes} bytes together.`, field);
      }
    };
    try {
      for (const part of this.held) {
        if (part.kind === 'field') {
          const value = part.field === 'model' ? upstreamModel : String(part.value);
          yield Buffer.from(`--${boundary}${CRLF}${disposition(part.field)}${CRLF}${CRLF}${value}${CRLF}`);
        } else {
          count(part.bytes.length, part.field);
          yield Buffer.from(`--${boundary}${CRLF}${disposition(part.field, part.filename)}${CRLF}Content-Type: ${part.type}${CRLF}${CRLF}`);
          yield part.bytes;
          yield Buffer.from(CRLF);
        }
      }
      for (let next = await this.raw.next(); !next.done; next = await this.raw.next()) {
        const part = next.value;
        if (part.type !== 'file') {
          this.fields[part.fieldname] = part.value;
          yield Buffer.from(`--${boundary}${CRLF}${disposition(part.fieldname)}${CRLF}${CRLF}${String(part.value)}${CRLF}`);
          continue;
        }
        yield Buffer.from(
          `--${boundary}${CRLF}${disposition(part.fieldname, part.filename)}${CRLF}Content-Type: ${part.mimetype}${CRLF}${CRLF}`,
        );
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          count(chunk.length, part.fieldname);
          yield chunk;
        }
        if (part.file.truncated)
          throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413, part });
        yield Buffer.from(CRLF);
      }
      yield Buffer.from(`--${boundary}--${CRLF}`);
    } catch (error) {
      this.failure = malformed(error);
      throw this.failure;
    }
  }
}

/** A part's Content-Disposition line; quotes and line breaks in names are escaped as browsers do. */
function disposition(field: string, filename?: string): string {
  const quoted = (text: string) => `"${text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
  return `Content-Disposition: form-data; name=${quoted(field)}${filename === undefined ? '' : `; filename=${quoted(filename)}`}`;
}

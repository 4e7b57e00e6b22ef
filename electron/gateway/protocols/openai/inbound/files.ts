// The OpenAI Files shape: an upload's `purpose` and `expires_after` form fields checked, and file objects rendered.
import { invalid } from '../../../errors.ts';
import { missing } from '../../fields.ts';

/** Purposes an upload may name, as on the real API. */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

/** Shortest and longest `expires_after[seconds]`, as on the real API (one hour to 30 days). */
export const EXPIRES_AFTER_SECONDS = { min: 3600, max: 2_592_000 } as const;

/** An upload's form fields, checked. */
export interface FileUpload {
  purpose: string;
  /** `expires_after[seconds]` (anchored at creation); absent: the gateway's default. */
  expiresAfterSeconds?: number;
}

/** The fields of `POST /v1/files` (besides the file), or a 400 naming the first one that is wrong. */
export function parseFileUpload(fields: Readonly<Record<string, unknown>>): FileUpload {
  const purpose = fields['purpose'];
  if (purpose === undefined) throw missing('purpose');
  if (typeof purpose !== 'string' || !(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) {
    throw invalid(`Invalid value for 'purpose': expected one of ${UPLOAD_PURPOSES.join(', ')}.`, 'purpose');
  }
  const anchor = fields['expires_after[anchor]'];
  const seconds = fields['expires_after[seconds]'];
  if (anchor === undefined && seconds === undefined) return { purpose };
  if (anchor !== 'created_at') throw invalid("Invalid value for 'expires_after.anchor': expected 'created_at'.", 'expires_after.anchor');
  const value = typeof seconds === 'string' && /^\d{1,9}$/.test(seconds) ? Number(seconds) : Number.NaN;
  if (!(value >= EXPIRES_AFTER_SECONDS.min && value <= EXPIRES_AFTER_SECONDS.max)) {
    throw invalid(
      `Invalid value for 'expires_after.seconds': expected an integer from ${EXPIRES_AFTER_SECONDS.min} to ${EXPIRES_AFTER_SECONDS.max}.`,
      'expires_after.seconds',
    );
  }
  return { purpose, expiresAfterSeconds: value };
}

/** A stored file as the gateway knows it (times in ms). */
export interface FileRecord {
  file_id: string;
  filename: string;
  purpose: string;
  bytes: number;
  created_at: number;
  expires_at: number;
}

/** The file object. */
export function renderFile(file: FileRecord) {
  return {
    id: file.file_id,
    object: 'file',
    bytes: file.bytes,
    created_at: Math.floor(file.created_at / 1000),
    expires_at: Math.floor(file.expires_at / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    status_details: null,
  };
}

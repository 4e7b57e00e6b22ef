// Files of the Files API per account: uploads and the files batches write, kept as private files under the data dir, within a per-account quota and an expiry.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { GatewayError, notFound } from '../errors.ts';
import { publicId } from '../ids.ts';
import type { CursorAsk } from '../storage/cursor-rows.ts';
import type { ApiFileRow, FilesRepo } from '../storage/files-repo.ts';
import type { Clock } from '../time.ts';
import { readGeneratedFile, storeGeneratedFile } from './generated-files.ts';
import type { StorageLimits } from './storage-limits.ts';

/** Files live in `<dataDir>/files/uploads/`. */
export const FILES_KIND = 'uploads';

/** Longest file name kept (longer ones are cut). */
export const MAX_FILENAME_CHARS = 255;

export class ApiFiles {
  private readonly repo: FilesRepo;
  private readonly clock: Clock;
  private readonly dataDir: string;
  private readonly limits: StorageLimits;
  private readonly onError: (error: unknown) => void;
  constructor(deps: { repo: FilesRepo; clock: Clock; dataDir: string; limits: StorageLimits; onError: (error: unknown) => void }) {
    this.repo = deps.repo;
    this.clock = deps.clock;
    this.dataDir = deps.dataDir;
    this.limits = deps.limits;
    this.onError = deps.onError;
  }

  /**
   * Keeps `bytes` as a new file of the account (expired files are swept first, a bounded batch); a 400 when the account
   * would go over its file count or bytes. `expiresAfterSeconds` shortens the default lifetime.
   */
  create(accountId: number, file: { filename: string; purpose: string; bytes: Buffer; expiresAfterSeconds?: number }): ApiFileRow {
    this.sweep();
    const usage = this.repo.usage(accountId);
    if (usage.files + 1 > this.limits.filesPerAccount) {
      throw new GatewayError('invalid_request', `This account keeps ${usage.files} files, the most allowed; delete some first.`, 'file');
    }
    if (usage.bytes + file.bytes.length > this.limits.filesAccountBytes) {
      throw new GatewayError(
        'invalid_request',
        `This account's files would take more than ${this.limits.filesAccountBytes} bytes, the most allowed; delete some first.`,
        'file',
      );
    }
    const now = this.clock.now();
    const lifetime = Math.min(this.limits.fileMaxAgeMs, (file.expiresAfterSeconds ?? Number.POSITIVE_INFINITY) * 1000);
    const row = {
      file_id: publicId('file').replace('_', '-'),
      account_id: accountId,
      filename: file.filename.slice(0, MAX_FILENAME_CHARS) || 'file',
      purpose: file.purpose,
      bytes: file.bytes.length,
      disk_name: storeGeneratedFile(this.dataDir, FILES_KIND, 'bin', file.bytes),
      created_at: now,
      expires_at: now + lifetime,
    };
    try {
      this.repo.insert(row);
    } catch (error) {
      this.remove(row.disk_name);
      throw error;
    }
    return this.get(accountId, row.file_id);
  }

  /** One of the account's files; another account's, an unknown or an expired id is a 404. */
  get(accountId: number, fileId: string): ApiFileRow {
    const row = this.repo.find(accountId, fileId, this.clock.now());
    if (!row) throw notFound(`No such File object: ${fileId}`, 'file_id');
    return row;
  }

  list(accountId: number, purpose: string | undefined, ask: CursorAsk) {
    return this.repo.list(accountId, this.clock.now(), purpose, ask);
  }

  /** The file's bytes. */
  async content(accountId: number, fileId: string): Promise<Buffer> {
    const row = this.get(accountId, fileId);
    const bytes = await readGeneratedFile(this.dataDir, FILES_KIND, row.disk_name);
    if (!bytes) throw notFound(`The content of file ${fileId} is gone.`, 'file_id');
    return bytes;
  }

  delete(accountId: number, fileId: string): void {
    this.get(accountId, fileId);
    const diskName = this.repo.delete(accountId, fileId);
    if (diskName) this.remove(diskName);
  }

  /** Deletes expired files (a bounded batch) with their bytes. Never throws. */
  sweep(): void {
    try {
      for (const name of this.repo.deleteExpired(this.clock.now(), this.limits.pruneBatch)) this.remove(name);
    } catch (error) {
      this.onError(error);
    }
  }

  private remove(diskName: string): void {
    try {
      rmSync(path.join(this.dataDir, 'files', FILES_KIND, path.basename(diskName)), { force: true });
    } catch (error) {
      this.onError(error);
    }
  }
}

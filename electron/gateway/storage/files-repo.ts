// Repository of uploaded files (the Files API) and the files batches write; every query is scoped by account, the bytes live on disk.
import { cursorRows, type CursorAsk, type CursorRows } from './cursor-rows.ts';
import type { Db } from './database.ts';

/** A file's record; its bytes are `<dataDir>/files/uploads/<disk_name>`. */
export interface ApiFileRow {
  id: number;
  file_id: string;
  account_id: number;
  filename: string;
  purpose: string;
  bytes: number;
  disk_name: string;
  created_at: number;
  expires_at: number;
}

export class FilesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(row: Omit<ApiFileRow, 'id'>): void {
    this.db
      .prepare(
        `INSERT INTO api_files (file_id, account_id, filename, purpose, bytes, disk_name, created_at, expires_at)
         VALUES (@file_id, @account_id, @filename, @purpose, @bytes, @disk_name, @created_at, @expires_at)`,
      )
      .run(row);
  }

  /** One of the account's files that has not expired at `now`. */
  find(accountId: number, fileId: string, now: number): ApiFileRow | undefined {
    return this.db
      .prepare('SELECT * FROM api_files WHERE account_id = ? AND file_id = ? AND expires_at > ?')
      .get(accountId, fileId, now) as ApiFileRow | undefined;
  }

  list(accountId: number, now: number, purpose: string | undefined, ask: CursorAsk): CursorRows<ApiFileRow> {
    const where = purpose === undefined ? 'expires_at > ?' : 'expires_at > ? AND purpose = ?';
    const params = purpose === undefined ? [now] : [now, purpose];
    return cursorRows(this.db, { table: 'api_files', idColumn: 'file_id', accountId, where, params }, ask);
  }

  /** Files and bytes the account keeps (expired ones not yet swept included). */
  usage(accountId: number): { files: number; bytes: number } {
    return this.db
      .prepare('SELECT COUNT(*) AS files, COALESCE(SUM(bytes), 0) AS bytes FROM api_files WHERE account_id = ?')
      .get(accountId) as {
      files: number;
      bytes: number;
    };
  }

  /** Deletes one of the account's files; its disk name, or undefined when it has none with that id. */
  delete(accountId: number, fileId: string): string | undefined {
    const row = this.db.prepare('DELETE FROM api_files WHERE account_id = ? AND file_id = ? RETURNING disk_name').get(accountId, fileId) as
      { disk_name: string } | undefined;
    return row?.disk_name;
  }

  /** Deletes at most `limit` files (of any account) expired at `now`; their disk names. */
  deleteExpired(now: number, limit: number): string[] {
    const rows = this.db
      .prepare(
        'DELETE FROM api_files WHERE id IN (SELECT id FROM api_files WHERE expires_at <= ? ORDER BY expires_at LIMIT ?) RETURNING disk_name',
      )
      .all(now, limit) as { disk_name: string }[];
    return rows.map((row) => row.disk_name);
  }
}

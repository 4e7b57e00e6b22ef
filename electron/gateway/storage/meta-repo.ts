// Repository of small key/value facts the gateway keeps between runs (e.g. when the last background scan ran).
import type { Db } from './database.ts';

export class MetaRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  get(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  set(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}

// Repository of accounts: the owners that scope tokens and every portrait record.
import type { Db } from './database.ts';

/** An account row. */
export interface AccountRow {
  id: number;
  name: string;
  created_at: number;
}

export class AccountsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findByName(name: string): AccountRow | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as AccountRow | undefined;
  }

  findById(id: number): AccountRow | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  }

  /** Returns the account called `name`, creating it first when it does not exist. */
  ensure(name: string, now: number): AccountRow {
    this.db.prepare('INSERT INTO accounts (name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, now);
    return this.findByName(name) as AccountRow;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n;
  }
}

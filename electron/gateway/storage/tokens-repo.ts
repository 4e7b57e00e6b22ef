// Repository of API tokens: only a SHA-256 hash and a short hint of each secret are stored.
import type { Db } from './database.ts';
import { ReadCache } from './read-cache.ts';

/** A token row joined with its account name. */
export interface TokenRow {
  id: number;
  token_id: string;
  account_id: number;
  account_name: string;
  name: string;
  token_hash: string;
  token_hint: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  quota_micros: number | null;
  used_micros: number;
  /** JSON array of the model names the token may call; null: any model. */
  models: string | null;
  /** When the token was last accepted, recorded at most about once a minute; null: never. */
  last_used_at: number | null;
}

/** What an edit of a token may change (absent: unchanged). */
export interface TokenChange {
  expires_at?: number | null;
  quota_micros?: number | null;
  models?: string | null;
}

/** The fields needed to insert a token. */
export interface NewToken {
  token_id: string;
  account_id: number;
  name: string;
  token_hash: string;
  token_hint: string;
  created_at: number;
  expires_at: number | null;
  quota_micros: number | null;
  models: string | null;
}

/**
 * A token with its account's name. The name comes from a correlated subquery, not a JOIN: every token has its
 * account (a foreign key), and SQLite plans a JOIN of these small tables with a per-run Bloom filter that made the
 * lookup of every API call about ten times slower.
 */
const SELECT = 'SELECT t.*, (SELECT a.name FROM accounts a WHERE a.id = t.account_id) AS account_name FROM tokens t';

/** A token as a call presents it: everything but its spent amount, which every charge changes. */
export type TokenIdentity = Omit<TokenRow, 'used_micros'>;

/** Most presented tokens kept at once; past it the cache starts over. */
export const PRESENTED_TOKENS_LIMIT = 1000;

export class TokensRepo {
  private readonly db: Db;
  /** Tokens presented by calls, by hash, kept until the tokens table is written (charges aside) or another connection commits. */
  private readonly presented: ReadCache<Map<string, Readonly<TokenIdentity>>>;
  constructor(db: Db) {
    this.db = db;
    this.presented = new ReadCache(db, 'tokens', () => new Map());
  }

  insert(token: NewToken): TokenRow {
    this.db
      .prepare(
        `INSERT INTO tokens (token_id, account_id, name, token_hash, token_hint, created_at, expires_at, quota_micros, models)
         VALUES (@token_id, @account_id, @name, @token_hash, @token_hint, @created_at, @expires_at, @quota_micros, @models)`,
      )
      .run(token);
    this.presented.changed();
    return this.findByTokenId(token.token_id) as TokenRow;
  }

  findByHash(hash: string): TokenRow | undefined {
    return this.db.prepare(`${SELECT} WHERE t.token_hash = ?`).get(hash) as TokenRow | undefined;
  }

  /**
   * The token of a presented secret's hash, as every API call looks it up: kept between writes, without the
   * spent amount (read it with `usedMicros`). An unknown hash is not kept, so wrong tokens cannot fill the cache.
   */
  identify(hash: string): Readonly<TokenIdentity> | undefined {
    const known = this.presented.get();
    const kept = known.get(hash);
    if (kept) return kept;
    const row = this.findByHash(hash);
    if (!row) return undefined;
    const { used_micros: _spent, ...identity } = row;
    if (known.size >= PRESENTED_TOKENS_LIMIT) known.clear();
    known.set(hash, Object.freeze(identity));
    return identity;
  }

  /** What a token has spent so far (micro-units); undefined when it does not exist. */
  usedMicros(tokenId: string): number | undefined {
    const row = this.db.prepare('SELECT used_micros FROM tokens WHERE token_id = ?').get(tokenId) as { used_micros: number } | undefined;
    return row?.used_micros;
  }

  findByTokenId(tokenId: string): TokenRow | undefined {
    return this.db.prepare(`${SELECT} WHERE t.token_id = ?`).get(tokenId) as TokenRow | undefined;
  }

  /** All tokens, optionally of one account, oldest first. */
  list(accountId?: number): TokenRow[] {
    return accountId === undefined
      ? (this.db.prepare(`${SELECT} ORDER BY t.id`).all() as TokenRow[])
      : (this.db.prepare(`${SELECT} WHERE t.account_id = ? ORDER BY t.id`).all(accountId) as TokenRow[]);
  }

  /** Marks a token revoked; returns false when it does not exist. A second revoke keeps the first time. */
  revoke(tokenId: string, now: number): boolean {
    const result = this.db.prepare('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE token_id = ?').run(now, tokenId);
    this.presented.changed();
    return result.changes > 0;
  }

  /** Changes the given fields of a token; returns false when it does not exist. */
  update(tokenId: string, change: TokenChange): boolean {
    const columns = (['expires_at', 'quota_micros', 'models'] as const).filter((column) => change[column] !== undefined);
    if (columns.length === 0) return this.findByTokenId(tokenId) !== undefined;
    const sets = columns.map((column) => `${column} = @${column}`).join(', ');
    this.presented.changed();
    return this.db.prepare(`UPDATE tokens SET ${sets} WHERE token_id = @token_id`).run({ ...change, token_id: tokenId }).changes > 0;
  }

  /** Records when a token was last used. */
  touch(tokenId: string, at: number): void {
    this.presented.changed();
    this.db.prepare('UPDATE tokens SET last_used_at = ? WHERE token_id = ?').run(at, tokenId);
  }

  /** Deletes a revoked token; returns false when there is no revoked token of that id. */
  deleteRevoked(tokenId: string): boolean {
    this.presented.changed();
    return this.db.prepare('DELETE FROM tokens WHERE token_id = ? AND revoked_at IS NOT NULL').run(tokenId).changes > 0;
  }

  /** Adds spent micro-units to a token's usage (not a change `identify` needs to see). */
  addUsage(tokenId: string, micros: number): void {
    this.db.prepare('UPDATE tokens SET used_micros = used_micros + ? WHERE token_id = ?').run(micros, tokenId);
  }
}

// Reuses compiled SQLite statements: `db.prepare(sql)` answers the statement already compiled for the same text instead of compiling it on every call.
import type Database from 'better-sqlite3';

/** Most distinct statement texts kept; past it the cache starts over (the repositories use far fewer). */
export const STATEMENT_CACHE_LIMIT = 500;

/**
 * Makes `db.prepare` memoize by SQL text. The repositories prepare the same fixed texts on every call and
 * never switch a statement's mode (`pluck`, `raw`, `expand`) nor iterate it, so one compiled statement
 * per text is safe to share; compiling took a large share of each request's time. `compiled` is told of each statement
 * once, as it is compiled (the connection's `SyncMode` guards those that may write).
 */
export function cacheStatements(db: Database.Database, compiled: (statement: Database.Statement) => void = () => undefined): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
      statement = compile(sql);
      compiled(statement);
      cache.set(sql, statement);
    }
    return statement;
  }) as typeof db.prepare;
}

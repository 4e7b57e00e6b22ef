// One account's rows of a table a page at a time, after a public id, oldest or newest first: the cursor lists of the OpenAI API.
import type { Db } from './database.ts';

/** What page a cursor list asks for. */
export interface CursorAsk {
  /** The public id of the last item of the previous page; an unknown one gives an empty page. */
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

/** A page of rows and whether more follow it. */
export interface CursorRows<T> {
  rows: T[];
  hasMore: boolean;
}

/** Where to read: a table with `id` (its insertion order), `account_id` and a public id column; `where` adds conditions on `params`. */
export interface CursorTable {
  table: string;
  idColumn: string;
  accountId: number;
  where?: string;
  params?: readonly unknown[];
}

/** One page of `spec`'s rows as `ask` says (table and column names are the code's own constants, never input). */
export function cursorRows<T>(db: Db, spec: CursorTable, ask: CursorAsk): CursorRows<T> {
  const { table, idColumn, accountId } = spec;
  const clauses = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (spec.where) {
    clauses.push(spec.where);
    params.push(...(spec.params ?? []));
  }
  if (ask.after !== undefined) {
    clauses.push(`id ${ask.order === 'asc' ? '>' : '<'} (SELECT id FROM ${table} WHERE account_id = ? AND ${idColumn} = ?)`);
    params.push(accountId, ask.after);
  }
  const rows = db
    .prepare(`SELECT * FROM ${table} WHERE ${clauses.join(' AND ')} ORDER BY id ${ask.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`)
    .all(...params, ask.limit + 1) as T[];
  return { rows: rows.slice(0, ask.limit), hasMore: rows.length > ask.limit };
}

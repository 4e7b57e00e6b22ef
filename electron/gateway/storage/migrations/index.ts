// The ordered list of schema migrations; each runs once, in a transaction, and is recorded in `user_version`.
import { initial } from './001-initial.ts';
import { usage } from './002-usage.ts';

/** One numbered schema step. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, ascending by version. Append only: never edit a released one. */
export const migrations: readonly Migration[] = [initial, usage];

// The API tokens of a data dir without a running gateway: what the CLI's `token` command manages (also while a server runs on it).
import { openProductDatabase } from './open-stores.ts';
import { TokensService } from './services/tokens.ts';
import { AccountsRepo } from './storage/accounts-repo.ts';
import { TokensRepo } from './storage/tokens-repo.ts';
import { systemClock } from './time.ts';

/** The tokens of the data dir's database, opened (and migrated) on the spot; call close() when done. */
export interface TokenAdmin {
  readonly tokens: TokensService;
  close(): void;
}

/** Opens the data dir's database for token management. */
export function openTokenAdmin(dataDir: string): TokenAdmin {
  const db = openProductDatabase(dataDir);
  return { tokens: new TokensService(new AccountsRepo(db), new TokensRepo(db), systemClock), close: () => db.close() };
}

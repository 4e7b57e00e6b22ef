// The console's own API key per account (playground, snippets, 3D tasks): a kept secret revealed, or one `console` token made and shared by every browser session.
import type { ConsoleKey } from '../../../shared/admin-tokens.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { useSecretStore } from './secret-access.ts';
import { issueToken, tokenSecretKey } from './token-issue.ts';
import type { TokenSummary, TokensService } from './tokens.ts';

/** Name of the token the console makes for itself. */
export const CONSOLE_TOKEN_NAME = 'console';

/** True for a token a call can still use now: not revoked, not expired, quota not used up. */
const usableAt =
  (now: number) =>
  (token: TokenSummary): boolean =>
    token.revoked_at === null &&
    (token.expires_at === null || token.expires_at > now) &&
    (token.quota === null || token.used < token.quota);

/**
 * Hands out the console's key of an account, one token for every session: a usable token whose secret the store kept
 * (the console's own first), else the `console` token this run made and remembers in memory (a store that keeps nothing:
 * every browser session of this run gets the same one), else a new `console` token. With a store that keeps secrets the
 * new token's secret is kept, so later runs reveal it instead of making another.
 */
export function createConsoleKeys(tokens: Pick<TokensService, 'list' | 'draft' | 'insert'>, secrets: SecretStore, now: () => number) {
  const made = new Map<string, { tokenId: string; secret: string }>();
  return {
    async obtain(account: string): Promise<ConsoleKey> {
      const usable = tokens.list(account).filter(usableAt(now()));
      const ordered = [
        ...usable.filter((token) => token.name === CONSOLE_TOKEN_NAME),
        ...usable.filter((token) => token.name !== CONSOLE_TOKEN_NAME),
      ];
      if (secrets.kind !== 'none') {
        for (const token of ordered) {
          const secret = await useSecretStore(secrets, (store) => store.get(tokenSecretKey(token.token_id)));
          if (secret !== null) return { token_id: token.token_id, secret, source: 'revealed' };
        }
      }
      const held = made.get(account);
      if (held && usable.some((token) => token.token_id === held.tokenId))
        return { token_id: held.tokenId, secret: held.secret, source: 'created' };
      const issued = await issueToken(tokens, secrets, { account, name: CONSOLE_TOKEN_NAME });
      made.set(account, { tokenId: issued.token.token_id, secret: issued.secret });
      return { token_id: issued.token.token_id, secret: issued.secret, source: 'created' };
    },
  };
}

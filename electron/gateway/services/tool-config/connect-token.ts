// The API token Connect writes into a tool's config: the tool's own token (named after it), reused while its secret is kept, else a new one.
import type { ConnectTool } from '../../../../shared/tool-config.ts';
import type { SecretStore } from '../../secrets/secret-store.ts';
import { useSecretStore } from '../secret-access.ts';
import { issueToken, tokenSecretKey } from '../token-issue.ts';
import type { TokensService } from '../tokens.ts';

/** The secret of the tool's usable token of `account` whose secret the store kept; else a new token named after the tool. */
export async function toolTokenSecret(
  tokens: TokensService,
  store: SecretStore,
  tool: ConnectTool,
  account: string,
  now: number,
): Promise<{ secret: string; reused: boolean }> {
  const usable = tokens
    .list(account)
    .filter((token) => token.name === tool && token.revoked_at === null && (token.expires_at === null || token.expires_at > now));
  for (const token of usable) {
    const kept = await useSecretStore(store, (secrets) => secrets.get(tokenSecretKey(token.token_id)));
    if (kept !== null) return { secret: kept, reused: true };
  }
  const { secret } = await issueToken(tokens, store, { account, name: tool });
  return { secret, reused: false };
}

// A new API token and the stored copy of its secret as one outcome: both kept and the secret returned, or neither and an error.
import type { SecretStore } from '../secrets/secret-store.ts';
import { GatewayError } from '../errors.ts';
import { storeFailureMessage } from './secret-access.ts';
import type { CreateTokenInput, TokenSummary, TokensService } from './tokens.ts';

/** The secret store's key of a token's secret. */
export const tokenSecretKey = (tokenId: string): string => `token:${tokenId}`;

/** A token just created and its secret, shown this once. */
export interface IssuedToken {
  secret: string;
  token: TokenSummary;
}

/**
 * Issues a token whose secret `store` keeps: the secret is stored first and the token row written only once it is
 * kept, so a token is never listed without its secret. A store that fails (a secrets file whose lock stays busy, a
 * keychain error) creates nothing and throws GatewayError `unavailable` saying so; a row that cannot be written takes
 * its stored secret back. A crash in between leaves at most a stored secret that opens nothing (no row has its hash).
 */
export async function issueToken(
  tokens: Pick<TokensService, 'draft' | 'insert'>,
  store: SecretStore,
  input: CreateTokenInput,
): Promise<IssuedToken> {
  const draft = tokens.draft(input);
  const key = tokenSecretKey(draft.tokenId);
  try {
    await store.set(key, draft.secret);
  } catch (error) {
    throw new GatewayError(
      'unavailable',
      `No token was created, because its secret could not be kept: ${storeFailureMessage(store, error)}`,
    );
  }
  try {
    return { secret: draft.secret, token: tokens.insert(draft) };
  } catch (error) {
    await store.delete(key).catch(() => false);
    throw error;
  }
}

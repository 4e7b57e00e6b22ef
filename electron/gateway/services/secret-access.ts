// The admin API's calls into the secret store: a store that fails (a broken secrets file, a stuck lock, a keychain error) is a 503 that says which and why.
import { SecretsFileError } from '../secrets/file-store.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { GatewayError } from '../errors.ts';

/** Runs `call` on `store`; any failure becomes GatewayError `unavailable` with a message naming the store. */
export async function useSecretStore<T>(store: SecretStore, call: (store: SecretStore) => Promise<T>): Promise<T> {
  try {
    return await call(store);
  } catch (error) {
    if (error instanceof SecretsFileError) throw new GatewayError('unavailable', error.message);
    throw new GatewayError(
      'unavailable',
      `The secret store (${store.description}) failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

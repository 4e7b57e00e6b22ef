// The admin API's calls into the secret store: a store that fails (a broken secrets file, a stuck lock, a keychain error) is a 503 that says which and why.
import { SecretsFileError } from '../secrets/file-store.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { GatewayError } from '../errors.ts';

/** Runs `call` on `store`; any failure becomes GatewayError `unavailable` with a message naming the store. */
export async function useSecretStore<T>(store: SecretStore, call: (store: SecretStore) => Promise<T>): Promise<T> {
  try {
    return await call(store);
  } catch (error) {
    throw new GatewayError('unavailable', storeFailureMessage(store, error));
  }
}

/** What went wrong with `store`, for its user: a broken secrets file's own message, else the store and the cause. */
export function storeFailureMessage(store: SecretStore, error: unknown): string {
  if (error instanceof SecretsFileError) return error.message;
  return `The secret store (${store.description}) failed: ${error instanceof Error ? error.message : String(error)}`;
}

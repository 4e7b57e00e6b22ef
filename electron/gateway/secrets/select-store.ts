// Chooses the SecretStore for a `--secrets` mode: keychain, file, none, or auto (keychain when one answers, else none).
import { openFileStore } from './file-store.ts';
import { keychainMissingCause, openKeychainStore } from './keychain-store.ts';
import { keepNothingBecause, noSecretStore, type SecretStore } from './secret-store.ts';
import type { SecretStoreMode as SecretMode } from '../../../shared/settings.ts';

export { SECRET_STORE_MODES as SECRET_MODES, type SecretStoreMode as SecretMode } from '../../../shared/settings.ts';

/** The chosen store and any warning the host should print. */
export interface SelectedStore {
  store: SecretStore;
  warning?: string;
}

/** What choosing the file store means, in one sentence (the start-up warning, the console's Settings and Channels pages say it too). */
export const FILE_STORE_MEANING =
  'secrets are then kept in secrets.json in the data dir, a plain-text file only your user can read (mode 0600), with a lock for concurrent writers';

/**
 * `keychain` fails when no keychain answers; `file` warns that secrets sit in a plain file;
 * `auto` falls back to `none` (nothing kept, never a plain file) and says why, and how to keep them in the file instead.
 */
export async function selectSecretStore(mode: SecretMode, dataDir: string): Promise<SelectedStore> {
  switch (mode) {
    case 'keychain':
      return { store: await openKeychainStore() };
    case 'file':
      return {
        store: openFileStore(dataDir),
        warning: 'secrets are kept in a plain-text file (mode 0600) in the data dir; prefer the OS keychain',
      };
    case 'none':
      return { store: noSecretStore };
    case 'auto':
      try {
        return { store: await openKeychainStore() };
      } catch (error) {
        const cause = keychainMissingCause(error as Error);
        return {
          store: keepNothingBecause(cause),
          warning:
            `${cause}: no copy of tokens or channel keys is kept (a token is shown once). ` +
            `To keep them in a locked file in the data dir instead, choose "a locked file in the data dir" under Secret store on the console's Settings page ` +
            `(or pass --secrets file): ${FILE_STORE_MEANING}.`,
        };
      }
  }
}

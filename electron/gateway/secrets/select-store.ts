// Chooses the SecretStore for a `--secrets` mode: keychain, file, none, or auto (keychain when one answers, else none).
import { openFileStore } from './file-store.ts';
import { openKeychainStore } from './keychain-store.ts';
import { noSecretStore, type SecretStore } from './secret-store.ts';

export const SECRET_MODES = ['auto', 'keychain', 'file', 'none'] as const;
export type SecretMode = (typeof SECRET_MODES)[number];

/** The chosen store and any warning the host should print. */
export interface SelectedStore {
  store: SecretStore;
  warning?: string;
}

/**
 * `keychain` fails when no keychain answers; `file` warns that secrets sit in a plain file;
 * `auto` falls back to `none` (nothing kept, never a plain file) and says why.
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
        return {
          store: noSecretStore,
          warning: `no OS keychain answered (${(error as Error).message}); no copy of tokens is kept, so save the token printed below. Use --secrets file to keep them in a 0600 file instead.`,
        };
      }
  }
}

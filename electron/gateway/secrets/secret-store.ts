// The SecretStore interface: where token plaintexts (and later upstream credentials) live, never in SQLite.

/** A place for secrets, keyed by a name such as `token:tok_…`. */
export interface SecretStore {
  /** `keychain`, `file` or `none`: shown to the user so they know where secrets went. */
  readonly kind: 'keychain' | 'file' | 'none';
  /** A sentence saying where secrets are kept. */
  readonly description: string;
  /**
   * Why nothing is kept although no one asked for that (`--secrets auto` found no keychain), in the user's words:
   * "no keychain was found (no Secret Service on this machine)". Absent when the store keeps secrets or `none` was chosen.
   */
  readonly cause?: string;
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** The keychain service name under which Gatehouse keeps its entries. */
export const KEYCHAIN_SERVICE = 'Gatehouse';

/** A store that keeps nothing: secrets are shown once and then exist only with their owner. */
export const noSecretStore: SecretStore = {
  kind: 'none',
  description: 'no copy of secrets is kept (shown once only)',
  get: async () => null,
  set: async () => {},
  delete: async () => false,
};

/** The store that keeps nothing because no keeper was found; `cause` says why (see SecretStore.cause). */
export function keepNothingBecause(cause: string): SecretStore {
  return { ...noSecretStore, description: `no copy of secrets is kept: ${cause}`, cause };
}

/** Why a store keeps nothing, for a message: its cause, or the `--secrets none` the user chose. */
export function keepsNothingWhy(store: Pick<SecretStore, 'cause'>): string {
  return store.cause ?? 'it runs with --secrets none';
}

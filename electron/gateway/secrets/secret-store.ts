// The SecretStore interface: where token plaintexts (and later upstream credentials) live, never in SQLite.

/** A place for secrets, keyed by a name such as `token:tok_…`. */
export interface SecretStore {
  /** `keychain`, `file` or `none`: shown to the user so they know where secrets went. */
  readonly kind: 'keychain' | 'file' | 'none';
  /** A sentence saying where secrets are kept. */
  readonly description: string;
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

// A real API token per account for the playground, 3D tasks and snippets: a kept one revealed, or a new "console" token.
import { create } from 'zustand';
import type { AdminCall } from '../api/admin-client.ts';
import { messageOf, type KeyValueStorage } from './storage.ts';

const KEY = 'gatehouse.apiKeys';

/** Name of the tokens the console creates for itself. */
export const CONSOLE_TOKEN_NAME = 'console';

/** A usable secret and where it came from. */
export interface ApiKey {
  tokenId: string;
  secret: string;
  source: 'revealed' | 'created';
}

export interface ApiKeyState {
  keys: Record<string, ApiKey>;
  busy: boolean;
  error: string | null;
  /** The account's key: the one already held, a kept secret revealed, or a newly created token. */
  obtain(account: string): Promise<ApiKey | undefined>;
  /** Drops a key the gateway refused (revoked, expired), so the next obtain finds another. */
  forget(account: string): void;
}

export function createApiKeyStore(call: AdminCall, storage: KeyValueStorage, now: () => number = Date.now) {
  let initial: Record<string, ApiKey> = {};
  try {
    initial = JSON.parse(storage.getItem(KEY) ?? '{}') as Record<string, ApiKey>;
  } catch {
    initial = {};
  }
  const store = create<ApiKeyState>((set, get) => ({
    keys: initial,
    busy: false,
    error: null,
    async obtain(account) {
      const held = get().keys[account];
      if (held) return held;
      set({ busy: true, error: null });
      try {
        const tokens = await call('listTokens', { query: { account } });
        const usable = tokens.find(
          (token) =>
            token.revealable &&
            token.revoked_at === null &&
            (token.expires_at === null || token.expires_at > now()) &&
            (token.quota === null || token.used < token.quota),
        );
        let key: ApiKey;
        if (usable) {
          const { secret } = await call('revealToken', { params: { tokenId: usable.token_id } });
          key = { tokenId: usable.token_id, secret, source: 'revealed' };
        } else {
          const created = await call('createToken', { body: { account, name: CONSOLE_TOKEN_NAME } });
          key = { tokenId: created.token.token_id, secret: created.secret, source: 'created' };
        }
        set({ keys: { ...get().keys, [account]: key }, busy: false });
        return key;
      } catch (error) {
        set({ busy: false, error: messageOf(error) });
        return undefined;
      }
    },
    forget(account) {
      const { [account]: _dropped, ...rest } = get().keys;
      set({ keys: rest });
    },
  }));
  store.subscribe((state) => storage.setItem(KEY, JSON.stringify(state.keys)));
  return store;
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;

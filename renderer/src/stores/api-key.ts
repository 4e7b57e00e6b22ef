// A real API token per account for the playground, 3D tasks and snippets: the gateway's one console key of the account (a kept token revealed, or its one "console" token).
import { create } from 'zustand';
import type { AdminCall } from '../api/admin-client.ts';
import { messageOf, type KeyValueStorage } from './storage.ts';

const KEY = 'gatehouse.apiKeys';

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
  /** The account's key: the one already held, else the gateway's console key (shared by every session, made once). */
  obtain(account: string): Promise<ApiKey | undefined>;
  /** Drops a key the gateway refused (revoked, expired), so the next obtain finds another. */
  forget(account: string): void;
}

export function createApiKeyStore(call: AdminCall, storage: KeyValueStorage) {
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
        // The gateway chooses: a new session gets the same token as the others, never one more.
        const given = await call('obtainConsoleKey', { params: { account } });
        const key: ApiKey = { tokenId: given.token_id, secret: given.secret, source: given.source };
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

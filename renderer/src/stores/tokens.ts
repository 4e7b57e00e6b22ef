// API tokens of every account: list, create (the secret shown once), reveal a kept secret, edit limits, revoke, delete revoked ones.
import { create } from 'zustand';
import type { AdminToken, CreatedToken, TokenCreateBody, TokenUpdateBody } from '../../../shared/admin-tokens.ts';
import type { AdminCall } from '../api/admin-client.ts';
import type { FormResult } from './assets.ts';
import { ApiError } from '../api/http.ts';
import { messageOf } from './storage.ts';
import { withBusy } from './busy.ts';
import { loadInto, loadsInOrder } from './loads-in-order.ts';

export interface TokensState {
  tokens: AdminToken[] | null;
  loading: boolean;
  error: string | null;
  /** The token just created, with its secret, until the user dismisses it. */
  created: CreatedToken | null;
  /** Secrets revealed on request, by token id. */
  revealed: Record<string, string>;
  /** Ids with an action under way (revoke, reveal). */
  busy: string[];
  actionError: string | null;
  load(): Promise<void>;
  create(body: TokenCreateBody): Promise<FormResult<CreatedToken>>;
  dismissCreated(): void;
  reveal(tokenId: string): Promise<void>;
  hide(tokenId: string): void;
  revoke(tokenId: string): Promise<void>;
  /** Changes a token's expiry, quota or model limit. */
  update(tokenId: string, body: TokenUpdateBody): Promise<FormResult<AdminToken>>;
  /** Deletes a revoked token from the list and the gateway. */
  remove(tokenId: string): Promise<void>;
}

export function createTokensStore(call: AdminCall) {
  // A list asked for before a token was created (the page opened, then Create clicked) must not hide it when it lands.
  const loads = loadsInOrder();
  return create<TokensState>((set, get) => ({
    tokens: null,
    loading: false,
    error: null,
    created: null,
    revealed: {},
    busy: [],
    actionError: null,

    load: () => loadInto(loads, set, 'tokens', () => call('listTokens')),

    async create(body) {
      try {
        const created = await call('createToken', { body });
        loads.changed();
        // A list read after the creation may hold the token already.
        const listed = (get().tokens ?? []).filter((item) => item.token_id !== created.token.token_id);
        set({ created, tokens: [...listed, created.token] });
        return { ok: true, value: created };
      } catch (error) {
        return { ok: false, message: messageOf(error), param: error instanceof ApiError ? error.param : null };
      }
    },

    dismissCreated: () => set({ created: null }),

    reveal: (tokenId) =>
      withBusy(set, get, tokenId, async () => {
        const { secret } = await call('revealToken', { params: { tokenId } });
        set({ revealed: { ...get().revealed, [tokenId]: secret } });
      }),

    hide(tokenId) {
      const { [tokenId]: _hidden, ...rest } = get().revealed;
      set({ revealed: rest });
    },

    revoke: (tokenId) =>
      withBusy(set, get, tokenId, async () => {
        const token = await call('revokeToken', { params: { tokenId } });
        get().hide(tokenId);
        loads.changed();
        set({ tokens: (get().tokens ?? []).map((item) => (item.token_id === tokenId ? token : item)) });
      }),

    async update(tokenId, body) {
      try {
        const token = await call('updateToken', { params: { tokenId }, body });
        loads.changed();
        set({ tokens: (get().tokens ?? []).map((item) => (item.token_id === tokenId ? token : item)) });
        return { ok: true, value: token };
      } catch (error) {
        return { ok: false, message: messageOf(error), param: error instanceof ApiError ? error.param : null };
      }
    },

    remove: (tokenId) =>
      withBusy(set, get, tokenId, async () => {
        await call('deleteToken', { params: { tokenId } });
        loads.changed();
        set({ tokens: (get().tokens ?? []).filter((item) => item.token_id !== tokenId) });
      }),
  }));
}

export type TokensStore = ReturnType<typeof createTokensStore>;

// The current account's API key for pages that call the public API (playground, 3D tasks).
import { useStores } from '../context.ts';

export function useApiKey() {
  const { apiKeys, status } = useStores();
  const account = status((state) => state.account);
  const key = apiKeys((state) => state.keys[account]);
  const busy = apiKeys((state) => state.busy);
  const error = apiKeys((state) => state.error);
  return {
    account,
    key,
    busy,
    error,
    obtain: () => apiKeys.getState().obtain(account),
    /** Drops the key (e.g. after the gateway refused it), so the next use picks or creates another. */
    forget: () => apiKeys.getState().forget(account),
  };
}

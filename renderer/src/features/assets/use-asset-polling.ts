// While the assets page is open, polls every non-terminal asset it shows (the page and the detail) until it is terminal.
import { useEffect } from 'react';
import { useStores } from '../../context.ts';
import { createAssetPoller } from '../../stores/asset-poll.ts';
import { pendingAssetIds } from '../../stores/assets.ts';

/** Starts the poller with the page and stops it when the page goes away. */
export function useAssetPolling(): void {
  const { assets } = useStores();
  useEffect(() => {
    const poller = createAssetPoller((assetId) => assets.getState().poll(assetId));
    poller.track(pendingAssetIds(assets.getState()));
    const unsubscribe = assets.subscribe((state) => poller.track(pendingAssetIds(state)));
    return () => {
      unsubscribe();
      poller.stop();
    };
  }, [assets]);
}

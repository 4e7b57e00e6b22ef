// The gateway's status and the account the console acts for; the next scan time follows the event socket.
import { create } from 'zustand';
import type { ScanSummary, ServerStatus } from '../../../shared/server-status.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { loadShowing, loadsInOrder } from './loads-in-order.ts';

/** The account a fresh gateway creates. */
export const DEFAULT_ACCOUNT = 'local';

export interface StatusState {
  status: ServerStatus | null;
  loading: boolean;
  error: string | null;
  /** The account every page acts for. */
  account: string;
  load(): Promise<void>;
  setAccount(account: string): void;
  setNextScanAt(nextScanAt: number | null): void;
  /** A scan finished: its report becomes the status's last scan. */
  setLastScan(lastScan: ScanSummary): void;
}

export function createStatusStore(call: AdminCall, account = DEFAULT_ACCOUNT) {
  // A status read before a scan's event, or older than one shown, never puts the older scan back.
  const loads = loadsInOrder();
  return create<StatusState>((set, get) => {
    /** A scan's event applied to the status shown; a read under way may predate it, and before the first status there is nothing to undo. */
    const patch = (change: Partial<ServerStatus>) => {
      const status = get().status;
      if (!status) return;
      loads.changed();
      set({ status: { ...status, ...change } });
    };
    return {
      status: null,
      loading: false,
      error: null,
      account,
      load: () =>
        loadShowing(
          loads,
          set,
          () => call('getStatus'),
          (status) => {
            // Keep the chosen account when it exists; otherwise fall back to the first one there is.
            const current = get().account;
            const chosen = status.accounts.includes(current) || status.accounts.length === 0 ? current : status.accounts[0]!;
            return { status, account: chosen };
          },
        ),
      setAccount: (next) => set({ account: next }),
      setNextScanAt: (nextScanAt) => patch({ nextScanAt }),
      setLastScan: (lastScan) => patch({ lastScan }),
    };
  });
}

export type StatusStore = ReturnType<typeof createStatusStore>;

// The usage dashboard's numbers for a range of days, from the gateway's per-day totals (admin API).
import { create } from 'zustand';
import type { UsageStats } from '../../../shared/usage-stats.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { loadInto, loadsInOrder } from './loads-in-order.ts';

export interface UsageState {
  days: number;
  stats: UsageStats | null;
  loading: boolean;
  error: string | null;
  /** Loads the range of `days` (default: the current one). */
  load(days?: number): Promise<void>;
}

export function createUsageStore(call: AdminCall) {
  // An answer for a range the user has since left, or older than one shown, is dropped.
  const loads = loadsInOrder();
  return create<UsageState>((set, get) => ({
    days: 7,
    stats: null,
    loading: false,
    error: null,
    async load(days = get().days) {
      if (days !== get().days) loads.moved();
      set({ days });
      await loadInto(loads, set, 'stats', () => call('getUsageStats', { query: { days } }));
    },
  }));
}

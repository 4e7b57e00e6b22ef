// The usage dashboard's numbers for a range of days, from the gateway's per-day totals (admin API).
import { create } from 'zustand';
import type { UsageStats } from '../../../shared/usage-stats.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { messageOf } from './storage.ts';

export interface UsageState {
  days: number;
  stats: UsageStats | null;
  loading: boolean;
  error: string | null;
  /** Loads the range of `days` (default: the current one). */
  load(days?: number): Promise<void>;
}

export function createUsageStore(call: AdminCall) {
  return create<UsageState>((set, get) => ({
    days: 7,
    stats: null,
    loading: false,
    error: null,
    async load(days = get().days) {
      set({ loading: true, days });
      try {
        const stats = await call('getUsageStats', { query: { days } });
        // An answer for a range the user has since left is dropped.
        if (get().days === days) set({ stats, error: null, loading: false });
      } catch (error) {
        set({ error: messageOf(error), loading: false });
      }
    },
  }));
}

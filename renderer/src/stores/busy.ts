// Row actions of a list page (revoke a token, test a channel): one row busy at a time per id, a failure kept as the page's action error.
import { messageOf } from './storage.ts';

/** The part of a list store that row actions use. */
export interface BusyState {
  /** Ids whose action is under way. */
  busy: string[];
  actionError: string | null;
}

/** Runs `work` for row `id`: marks it busy, keeps a failure's message in `actionError`, and clears the mark either way. */
export async function withBusy<S extends BusyState>(
  set: (partial: Partial<S>) => void,
  get: () => S,
  id: string,
  work: () => Promise<void>,
): Promise<void> {
  set({ busy: [...get().busy, id], actionError: null } as Partial<S>);
  try {
    await work();
  } catch (error) {
    set({ actionError: messageOf(error) } as Partial<S>);
  } finally {
    set({ busy: get().busy.filter((item) => item !== id) } as Partial<S>);
  }
}

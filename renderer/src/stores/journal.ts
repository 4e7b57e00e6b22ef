// The request journal as the Logs page shows it: a filtered newest-first page that new calls join live, one entry's details, the shown calls for export, clearing.
import { create } from 'zustand';
import {
  JOURNAL_FILTER_TEXT_LIMIT,
  type JournalEntry,
  type JournalOutcome,
  type JournalPage,
  type JournalProtocol,
  type JournalSummary,
} from '../../../shared/journal.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { messageOf } from './storage.ts';

/** Rows per page of the Logs table. */
export const JOURNAL_PAGE_SIZE = 25;

/** The Logs filters; an empty value means "any". */
export interface JournalFilter {
  outcome: JournalOutcome | '';
  protocol: JournalProtocol | '';
  /** Exact model name. */
  model: string;
  /** Exact account name. */
  account: string;
  /** Part of the path, any case. */
  path: string;
  /** Text searched in the kept bodies, any case. */
  q: string;
  /** Exact `x-gatehouse-test-id` of the calls. */
  testId: string;
  /** Time range as `datetime-local` values (local time; empty: open), sent as `from` and `to`. */
  since: string;
  until: string;
}

export const NO_JOURNAL_FILTER: JournalFilter = {
  outcome: '',
  protocol: '',
  model: '',
  account: '',
  path: '',
  q: '',
  testId: '',
  since: '',
  until: '',
};

/** A filter as the gateway applies it: text trimmed and cut to its limit. */
export function normalizeJournalFilter(filter: JournalFilter): JournalFilter {
  const text = (value: string) => value.trim().slice(0, JOURNAL_FILTER_TEXT_LIMIT);
  return {
    ...filter,
    model: text(filter.model),
    account: text(filter.account),
    path: text(filter.path),
    q: text(filter.q),
    testId: text(filter.testId),
  };
}

/** A `datetime-local` value as epoch ms; `end` takes the last millisecond of that minute. Undefined for none. */
export function timeOf(value: string, end = false): number | undefined {
  if (value === '') return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms + (end ? 59_999 : 0) : undefined;
}

/** Whether a recorded call passes the (normalized) filters, by the same rules as the gateway's list query. */
export function matchesJournalFilter(filter: JournalFilter, entry: JournalSummary): boolean {
  if (filter.testId && entry.test_id !== filter.testId) return false;
  if (filter.outcome === 'ok' && entry.status >= 400) return false;
  if (filter.outcome === 'error' && entry.status < 400) return false;
  if (filter.protocol && entry.protocol !== filter.protocol) return false;
  if (filter.model && entry.model !== filter.model) return false;
  if (filter.account && entry.account !== filter.account) return false;
  const from = timeOf(filter.since);
  const to = timeOf(filter.until, true);
  if ((from !== undefined && entry.at < from) || (to !== undefined && entry.at > to)) return false;
  return !filter.path || entry.path.toLowerCase().includes(filter.path.toLowerCase());
}

export interface JournalState {
  page: JournalPage | null;
  loading: boolean;
  error: string | null;
  filter: JournalFilter;
  /** New calls join the first page as they are recorded; off, they are only counted. */
  live: boolean;
  /** Calls recorded since page 1 was last loaded that match the filters but are not shown (live off, or a later page open). */
  unseen: number;
  /** The id whose details are open, and those details once loaded. */
  detailId: number | null;
  detail: JournalEntry | null;
  detailLoading: boolean;
  detailError: string | null;
  clearing: boolean;
  clearError: string | null;
  load(page?: number): Promise<void>;
  setFilter(change: Partial<JournalFilter>): Promise<void>;
  setLive(live: boolean): Promise<void>;
  open(id: number): Promise<void>;
  close(): void;
  /** Empties the journal; resolves false (with `clearError` set) when the gateway refused. */
  clear(): Promise<boolean>;
  /** Applies a `journal.added` event. */
  applyAdded(entry: JournalSummary): void;
  /** The shown calls in full (bodies included), newest first, for an export. */
  shownEntries(): Promise<JournalEntry[]>;
}

/** The (normalized) filters as query parameters, empty ones left out. */
const queryOf = (filter: JournalFilter) => ({
  ...(filter.outcome && { outcome: filter.outcome }),
  ...(filter.protocol && { protocol: filter.protocol }),
  ...(filter.model && { model: filter.model }),
  ...(filter.account && { account: filter.account }),
  ...(filter.path && { path: filter.path }),
  ...(filter.q && { q: filter.q }),
  ...(filter.testId && { test_id: filter.testId }),
  ...(timeOf(filter.since) !== undefined && { from: timeOf(filter.since) }),
  ...(timeOf(filter.until, true) !== undefined && { to: timeOf(filter.until, true) }),
});

export function createJournalStore(call: AdminCall) {
  // Answers of an older load never overwrite those of a newer one (filters change quickly while typing).
  let loadSeq = 0;
  let detailSeq = 0;
  // Journal ids only grow: the newest one already shown or counted, so an event is taken into account once.
  let newestId = 0;
  // Events that arrive while a list answer is on its way: applied after it, since it may or may not hold them.
  let arrivedDuringLoad: JournalSummary[] | null = null;
  return create<JournalState>((set, get) => ({
    page: null,
    loading: false,
    error: null,
    filter: NO_JOURNAL_FILTER,
    live: true,
    unseen: 0,
    detailId: null,
    detail: null,
    detailLoading: false,
    detailError: null,
    clearing: false,
    clearError: null,

    async load(pageNumber = get().page?.page ?? 1) {
      const seq = ++loadSeq;
      arrivedDuringLoad ??= [];
      set({ loading: true });
      try {
        const page = await call('listJournal', { query: { p: pageNumber, page_size: JOURNAL_PAGE_SIZE, ...queryOf(get().filter) } });
        if (seq !== loadSeq) return;
        // Page 1 shows everything up to its newest entry; other pages leave the newer calls counted.
        if (page.page === 1) newestId = Math.max(newestId, page.items[0]?.id ?? 0);
        set({ page, error: null, loading: false, ...(page.page === 1 && { unseen: 0 }) });
      } catch (error) {
        if (seq !== loadSeq) return;
        set({ error: messageOf(error), loading: false });
      }
      const arrived = arrivedDuringLoad ?? [];
      arrivedDuringLoad = null;
      for (const entry of arrived) get().applyAdded(entry);
    },

    async setFilter(change) {
      set({ filter: normalizeJournalFilter({ ...get().filter, ...change }) });
      await get().load(1);
    },

    async setLive(live) {
      set({ live });
      // Turning live back on shows what arrived meanwhile.
      if (live && get().unseen > 0) await get().load(1);
    },

    async open(id) {
      const seq = ++detailSeq;
      set({ detailId: id, detailLoading: true, detailError: null, ...(get().detail?.id !== id && { detail: null }) });
      try {
        const detail = await call('getJournalEntry', { params: { entryId: String(id) } });
        if (seq === detailSeq) set({ detail, detailLoading: false });
      } catch (error) {
        if (seq === detailSeq) set({ detailError: messageOf(error), detailLoading: false });
      }
    },

    close() {
      detailSeq++;
      set({ detailId: null, detail: null, detailLoading: false, detailError: null });
    },

    async clear() {
      set({ clearing: true, clearError: null });
      try {
        await call('clearJournal');
      } catch (error) {
        set({ clearing: false, clearError: messageOf(error) });
        return false;
      }
      get().close();
      set({ clearing: false });
      await get().load(1);
      return true;
    },

    applyAdded(entry) {
      if (arrivedDuringLoad) {
        arrivedDuringLoad.push(entry);
        return;
      }
      const { page, filter, live } = get();
      if (!page || entry.id <= newestId) return;
      newestId = entry.id;
      if (!matchesJournalFilter(filter, entry)) return;
      // Only the gateway can tell whether its bodies match a search: counted, shown on "show newest".
      if (!live || page.page !== 1 || filter.q) {
        set({ unseen: get().unseen + 1 });
        return;
      }
      const items = [entry, ...page.items].sort((a, b) => b.id - a.id).slice(0, page.page_size);
      set({ page: { ...page, total: page.total + 1, items } });
    },

    async shownEntries() {
      const items = get().page?.items ?? [];
      return Promise.all(items.map((item) => call('getJournalEntry', { params: { entryId: String(item.id) } })));
    },
  }));
}

export type JournalStore = ReturnType<typeof createJournalStore>;

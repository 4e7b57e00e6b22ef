// Cassettes: a page of the record/replay folder from the admin API (newest recording first), filtered by text and by whether the replay run used each.
import { create } from 'zustand';
import type { CassetteFolder, CassetteQuery } from '../../../shared/cassette-admin.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { loadInto, loadsInOrder } from './loads-in-order.ts';
import { onceSoon } from './soon.ts';

/** While the Cassettes page is open, it is loaded again this long after a replayed call is recorded (at most once per such wait). */
export const CASSETTES_REFRESH_MS = 1000;

/** Cassettes shown per page. */
export const CASSETTES_PAGE_SIZE = 50;

/** Which cassettes the page lists: all, those the run replayed, or those it did not use. */
export type CassetteUse = '' | NonNullable<CassetteQuery['replayed']>;

export interface CassettesState {
  folder: CassetteFolder | null;
  loading: boolean;
  error: string | null;
  /** Part of a file name, model, path or channel. */
  text: string;
  use: CassetteUse;
  /** The file of a cassette to point at (a Logs entry's "replayed from" link), until another is chosen. */
  highlight: string | null;
  /** Loads page `p` (default: the current one) with the filters. */
  load(p?: number): Promise<void>;
  setFilter(filter: { text?: string; use?: CassetteUse }): Promise<void>;
  /** Points at one cassette: the list is filtered to its file. */
  show(file: string): void;
  /** A call was replayed: load again soon, so "This run" follows (calls in a burst cause one load). */
  refreshSoon(): void;
}

export function createCassettesStore(call: AdminCall) {
  // An answer of a search or filter the page has left, or older than one shown (another page), is dropped.
  const loads = loadsInOrder();
  // The page last asked for: a refresh reads it, not the page shown, which a click may be leaving.
  let askedPage = 1;
  return create<CassettesState>((set, get) => ({
    folder: null,
    loading: false,
    error: null,
    text: '',
    use: '',
    highlight: null,

    async load(p) {
      const { text, use } = get();
      askedPage = p ?? askedPage;
      const query = { p: askedPage, page_size: CASSETTES_PAGE_SIZE, q: text, ...(use && { replayed: use }) };
      await loadInto(loads, set, 'folder', () => call('listCassettes', { query }));
    },

    async setFilter(filter) {
      set({
        ...(filter.text !== undefined && { text: filter.text.trim() }),
        ...(filter.use !== undefined && { use: filter.use }),
        highlight: null,
      });
      loads.moved();
      await get().load(1);
    },

    show(file) {
      // The page loads the new search as it opens: a load of the search it left never lands.
      loads.moved();
      askedPage = 1;
      set({ text: file, use: '', highlight: file, folder: null, loading: false });
    },

    refreshSoon: onceSoon(() => void get().load(), CASSETTES_REFRESH_MS),
  }));
}

export type CassettesStore = ReturnType<typeof createCassettesStore>;

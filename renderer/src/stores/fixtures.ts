// Fixtures: the file and runtime fixtures with their match counts; add, edit and delete runtime ones (JSON checked by the gateway), reset the counts.
import { create } from 'zustand';
import type { FixtureListing } from '../../../shared/fixtures.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { ApiError } from '../api/http.ts';
import type { FormResult } from './assets.ts';
import { withBusy } from './busy.ts';
import { loadInto, loadsInOrder } from './loads-in-order.ts';
import { onceSoon } from './soon.ts';
import { messageOf } from './storage.ts';

/** While the Fixtures page is open, the counts are loaded again this long after a call is recorded (at most once per such wait). */
export const FIXTURE_COUNTS_REFRESH_MS = 1000;

/** The busy id of the actions on every runtime fixture at once (delete all, reset counts). */
export const ALL_FIXTURES = 'all';

export interface FixturesState {
  fixtures: FixtureListing[] | null;
  loading: boolean;
  error: string | null;
  busy: string[];
  actionError: string | null;
  /** The name of a fixture to point at (a Logs entry's link), until another is chosen. */
  highlight: string | null;
  load(): Promise<void>;
  /** Adds the fixtures of a JSON text (one, a list, or `{fixtures}`), seen only by `testId` when not empty. */
  add(text: string, testId: string): Promise<FormResult<FixtureListing[]>>;
  /** Replaces a runtime fixture by the fixture of a JSON text. */
  update(id: number, text: string): Promise<FormResult<FixtureListing>>;
  remove(id: number): Promise<void>;
  /** Removes every runtime fixture, or those of one test id. */
  removeAll(testId?: string): Promise<void>;
  resetCounters(): Promise<void>;
  setHighlight(name: string | null): void;
  /** A call was recorded: load again soon, so the match counts follow (calls in a burst cause one load). */
  refreshSoon(): void;
}

/** The JSON of a text, or the form error saying where it is not JSON (the gateway would refuse it anyway). */
function parsed(text: string): { ok: true; value: unknown } | { ok: false; message: string; param: null } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${messageOf(error)}`, param: null };
  }
}

const failure = (error: unknown) => ({
  ok: false as const,
  message: messageOf(error),
  param: error instanceof ApiError ? error.param : null,
});

export function createFixturesStore(call: AdminCall) {
  const loads = loadsInOrder();
  return create<FixturesState>((set, get) => ({
    fixtures: null,
    loading: false,
    error: null,
    busy: [],
    actionError: null,
    highlight: null,

    // Every change here loads the list again: an older list never replaces a newer one shown.
    load: () => loadInto(loads, set, 'fixtures', async () => (await call('listFixtures')).fixtures),

    async add(text, testId) {
      const json = parsed(text);
      if (!json.ok) return json;
      const id = testId.trim();
      // A list or a single fixture goes under `fixtures` so the test id applies to each.
      const body = id === '' ? json.value : { fixtures: fixturesOf(json.value), test_id: id };
      try {
        const { added } = await call('addFixtures', { body });
        await get().load();
        return { ok: true, value: added };
      } catch (error) {
        return failure(error);
      }
    },

    async update(id, text) {
      const json = parsed(text);
      if (!json.ok) return json;
      try {
        const changed = await call('updateFixture', { params: { fixtureId: String(id) }, body: json.value });
        await get().load();
        return { ok: true, value: changed };
      } catch (error) {
        return failure(error);
      }
    },

    remove: (id) =>
      withBusy(set, get, String(id), async () => {
        await call('removeFixture', { params: { fixtureId: String(id) } });
        await get().load();
      }),

    removeAll: (testId) =>
      withBusy(set, get, ALL_FIXTURES, async () => {
        await call('removeFixtures', testId ? { query: { test_id: testId } } : {});
        await get().load();
      }),

    resetCounters: () =>
      withBusy(set, get, ALL_FIXTURES, async () => {
        await call('resetFixtureCounters', { body: {} });
        await get().load();
      }),

    setHighlight: (name) => set({ highlight: name }),

    refreshSoon: onceSoon(() => void get().load(), FIXTURE_COUNTS_REFRESH_MS),
  }));
}

/** The fixtures of a parsed text: a list, `{fixtures: [...]}`, or one fixture. */
function fixturesOf(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object' && 'fixtures' in value) return (value as { fixtures: unknown }).fixtures;
  return [value];
}

export type FixturesStore = ReturnType<typeof createFixturesStore>;

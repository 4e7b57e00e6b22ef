// The fixtures contract of the admin API: a fixture as listed (with how often it matched), and what the store offers the admin handlers.

/** A fixture as the admin API lists it. */
export interface FixtureListing {
  id: number;
  /** Its name, else where it comes from (`file#index`, `runtime#index`). */
  label: string;
  /** `file#index` or `runtime#index`. */
  source: string;
  origin: 'file' | 'runtime';
  /** Only requests with this `x-gatehouse-test-id` see it; null: every request. */
  testId: string | null;
  /** Calls it answered since the counters were last reset (all test ids). */
  matched: number;
  /** The fixture as written (native form; an aimock entry as converted). */
  fixture: unknown;
}

/** What the admin API asks of the fixture store. */
export interface FixtureAdmin {
  /** Adds runtime fixtures (one, a list, or `{fixtures: [...]}`), seen only by `testId` when given; throws a GatewayError (400) naming each problem. */
  add(raw: unknown, testId?: string | null): FixtureListing[];
  /** In matching order (runtime first); with `testId`: those that test sees. */
  list(testId?: string): FixtureListing[];
  /** Removes runtime fixtures (all, or one test id's); answers how many. */
  remove(testId?: string): number;
  /** Replaces one runtime fixture in place by one fixture as written (its whole new form); undefined when there is no such runtime fixture. */
  replace(id: number, raw: unknown): FixtureListing | undefined;
  /** Removes one runtime fixture; false when there is none with this id. */
  removeOne(id: number): boolean;
  /** Starts the times and sequence counters over (all, or one test id). */
  resetCounters(testId?: string): void;
  /** Removes runtime fixtures and resets counters (all, or one test id): what `POST /admin/api/reset` does to fixtures. */
  reset(testId?: string): void;
}

// The testing API's bodies and answers: what a reset clears, and the gateway's clock as it is moved.

/** Body of `POST /admin/api/reset`: everything (`{}`) or one test id's; `data` also empties every account's stored data. */
export interface ResetBody {
  test_id?: string;
  /** Also empty groups, assets, 3D tasks, stored responses and chat completions, files and batches (of every account; not with `test_id`). */
  data?: boolean;
}

/** What a reset cleared: counts of what went, per kind. */
export interface ResetResult {
  test_id: string | null;
  /** Journal entries removed. */
  journal: number;
  /** Runtime fixtures removed (their times and sequence counters start over too). */
  fixtures: number;
  /** Requests whose counted faults (`x-gatehouse-fault: 429*N`) start over. */
  fault_counters: number;
  /** With `data: true`: rows removed per kind. */
  data?: Record<string, number>;
}

/** The gateway's clock as the testing API moves it: how far ahead of real time, and the time it reads now. */
export interface ClockState {
  offset_ms: number;
  /** RFC 3339 (UTC). */
  now: string;
}

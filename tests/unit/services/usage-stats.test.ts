// Unit tests of the usage dashboard's arithmetic: latency buckets and UTC days.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { bucketOf, dayOf } from '../../../electron/gateway/services/usage-stats.ts';
import { DAY_MS, dayNumberOf } from '../../../electron/gateway/time.ts';
import { LATENCY_BOUNDS_MS } from '../../../shared/usage-stats.ts';

test('a duration counts in the first bucket whose bound it does not exceed, or in the slower-than-all one', () => {
  assert.equal(bucketOf(0), 0);
  assert.equal(bucketOf(50), 0);
  assert.equal(bucketOf(50.5), 1);
  assert.equal(bucketOf(60_000), LATENCY_BOUNDS_MS.length - 1);
  assert.equal(bucketOf(60_001), LATENCY_BOUNDS_MS.length);
});

test('days are UTC', () => {
  assert.equal(dayOf(Date.parse('2026-03-01T23:59:59.999Z')), '2026-03-01');
  assert.equal(dayOf(Date.parse('2026-03-02T00:00:00Z')), '2026-03-02');
  // Each day's text is kept between calls: going back (a clock set back, an old batch line) names the older day again.
  assert.equal(dayOf(Date.parse('2026-03-01T12:00:00Z')), '2026-03-01');
  assert.equal(dayOf(Date.parse('1969-12-31T23:00:00Z')), '1969-12-31');
  assert.equal(dayOf(Date.parse('2026-03-02T23:59:59.999Z')), '2026-03-02');
});

test("a day number is the day SQLite's date() names for the same bound time, so the ledger's day totals and the dashboard's counts agree", () => {
  const db = new Database(':memory:');
  try {
    const sqliteDay = db.prepare<[number], { day: string }>("SELECT date(? / 1000, 'unixepoch') AS day");
    // Around midnight, before 1970 and within its last second included (where whole seconds and milliseconds part).
    for (const at of [
      0,
      1,
      86_399_999,
      86_400_000,
      -1,
      -500,
      -999,
      -1000,
      -1001,
      -86_400_000,
      -86_400_500,
      Date.parse('2026-03-01T23:59:59.999Z'),
    ]) {
      const day = sqliteDay.get(at)!.day;
      assert.equal(dayOf(at), day, `day of ${at} ms`);
      assert.equal(dayNumberOf(at), Date.parse(day) / DAY_MS, `day number of ${at} ms`);
    }
  } finally {
    db.close();
  }
});

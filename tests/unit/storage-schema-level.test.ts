// Unit tests of the newer-schema rule: any recorded schema step this build does not know makes a file "newer", and it is refused without a write.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { test } from 'node:test';
import { DataDirError } from '../../electron/gateway/storage/data-dir-check.ts';
import type { Migration } from '../../electron/gateway/storage/migrations/index.ts';
import { assertKnownSchema } from '../../electron/gateway/storage/schema-level.ts';

/** A build that knows steps 1, 2 and 4 (3 belongs to work merged elsewhere). */
const STEPS: Migration[] = [1, 2, 4].map((version) => ({ version, name: `step-${version}`, sql: '' }));

/** An in-memory file recording `versions` in schema_migrations (none: no such table) and `userVersion`. */
function fileRecording(versions: number[] | null, userVersion = 0): Database.Database {
  const db = new Database(':memory:');
  if (versions) {
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const version of versions) db.prepare("INSERT INTO schema_migrations VALUES (?, 'x', 1)").run(version);
  }
  db.pragma(`user_version = ${userVersion}`);
  return db;
}

const refusalOf = (db: Database.Database): DataDirError | undefined => {
  try {
    assertKnownSchema(db, 'f.sqlite', STEPS);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof DataDirError);
    return error;
  }
};

test('a file with only known steps, some not yet applied, or none at all, is accepted', () => {
  assert.equal(refusalOf(fileRecording([1, 2])), undefined);
  assert.equal(refusalOf(fileRecording([1, 2, 4])), undefined);
  assert.equal(refusalOf(fileRecording(null)), undefined, 'a new file');
  assert.equal(refusalOf(fileRecording(null, 2)), undefined, 'an old file with its level in user_version');
});

test('a step above the highest known is a newer schema, named with both levels', () => {
  const refusal = refusalOf(fileRecording([1, 2, 4, 5]));
  assert.equal(refusal?.problem, 'newer_schema');
  assert.match(
    refusal!.message,
    /^The database f\.sqlite was written by a newer Gatehouse \(schema 5\); this Gatehouse knows schema 4: upgrade Gatehouse/,
  );
});

test('an unknown step below the highest known (merged elsewhere) is newer too, and named', () => {
  const refusal = refusalOf(fileRecording([1, 2, 3]));
  assert.match(refusal!.message, /\(schema step 3, which this one lacks\); this Gatehouse knows schema 4/);
});

test('a user_version above the highest known is a newer schema', () => {
  assert.match(refusalOf(fileRecording(null, 7))!.message, /\(schema 7\); this Gatehouse knows schema 4/);
});

test('the check writes nothing: the refused file records what it recorded before', () => {
  const db = fileRecording([1, 2, 4, 5], 0);
  const before = db.serialize();
  refusalOf(db);
  assert.deepEqual(db.serialize(), before);
});

// Tests of the WAL checkpoint thread on a real SQLite file: committed rows reach the database file without a checkpoint on the event loop, the WAL stays bounded under a long load, and a thread that dies is reported and replaced.
import assert from 'node:assert/strict';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, DATABASE_FILE, type Db } from '../../../electron/gateway/storage/database.ts';
import { WAL_BACKSTOP_PAGES, WalCheckpointer } from '../../../electron/gateway/storage/wal-checkpoint.ts';
import { countInFileAlone } from '../../helpers/database.ts';
import { eventually } from '../../helpers/eventually.ts';
import { tempDataDir } from '../../helpers/gateway.ts';

/** A migrated database in its own data dir, with a table of notes; closed (after its checkpointer) at the end. */
function openNotes(): { db: Db; dir: string; checkpointer: WalCheckpointer; errors: unknown[] } {
  const dir = tempDataDir();
  const db = openDatabase(dir);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const errors: unknown[] = [];
  const checkpointer = new WalCheckpointer(db, { onError: (error) => errors.push(error) });
  after(async () => {
    await checkpointer.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, dir, checkpointer, errors };
}

/** Notes in the database file alone (a copy without its WAL): what a checkpoint has copied so far. */
const rowsInFile = (dir: string) => countInFileAlone(path.join(dir, DATABASE_FILE), 'SELECT count(*) FROM notes');

const insert = (db: Db, text: string) => db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);

test('committed rows reach the database file from the checkpoint thread, though the WAL is far below SQLite’s own checkpoint size', async () => {
  const { db, dir, checkpointer, errors } = openNotes();
  checkpointer.start();
  for (let i = 0; i < 50; i += 1) insert(db, `note ${i}`);
  await eventually(() => rowsInFile(dir) === 50, 'the 50 notes in the database file');
  await eventually(() => checkpointer.checkpoints > 0, 'the thread’s report of its checkpoints');
  assert.deepEqual(errors, []);
});

test('under a long load the WAL stays bounded, and every row reaches the database file', async () => {
  const { db, dir, checkpointer, errors } = openNotes();
  checkpointer.start();
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const wal = path.join(dir, `${DATABASE_FILE}-wal`);
  // Each note spans three pages: 6,000 commits write about 18,000 WAL pages, over four times the backstop.
  const text = 'x'.repeat(3 * pageSize);
  let largest = 0;
  for (let i = 0; i < 6000; i += 1) {
    insert(db, text);
    if (i % 50 === 0) {
      largest = Math.max(largest, statSync(wal).size);
      // Other turns of the event loop come between the commits, as between a gateway's calls.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  largest = Math.max(largest, statSync(wal).size);
  // The backstop checkpoint is skipped while the thread's own checkpoint holds SQLite's checkpoint lock, so on a busy
  // machine more commits land first (seen: nearly twice the backstop at a load of 10 on 2 cores): a generous bound of
  // two and a half times the backstop, still far under the 18,000 pages written.
  const bound = WAL_BACKSTOP_PAGES * 2.5 * (pageSize + 24);
  assert.ok(largest <= bound, `the WAL reached ${largest} bytes, over ${bound}`);
  await eventually(() => rowsInFile(dir) === 6000, 'the 6,000 notes in the database file');
  assert.deepEqual(errors, []);
});

test('a checkpoint thread that dies is reported and another takes over', async () => {
  const { db, dir, checkpointer, errors } = openNotes();
  checkpointer.start();
  const first = checkpointer.thread;
  assert.ok(first, 'a thread runs');
  await first.terminate();
  await eventually(() => errors.length === 1, 'the stop reported');
  assert.match(String(errors[0]), /checkpoint thread stopped/);
  for (let i = 0; i < 20; i += 1) insert(db, `note ${i}`);
  await eventually(() => rowsInFile(dir) === 20, 'the 20 notes in the database file, checkpointed by the new thread');
  assert.ok(checkpointer.thread && checkpointer.thread !== first, 'another thread runs');
});

test('stop runs a last checkpoint and closes the thread’s connection: closing the database then leaves no WAL', async () => {
  const dir = tempDataDir();
  after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDatabase(dir);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const checkpointer = new WalCheckpointer(db, { onError: (error) => assert.fail(String(error)) });
  checkpointer.start();
  for (let i = 0; i < 10; i += 1) insert(db, `note ${i}`);
  await checkpointer.stop();
  db.close();
  assert.equal(existsSync(path.join(dir, `${DATABASE_FILE}-wal`)), false, 'the WAL is folded in and removed');
  assert.equal(rowsInFile(dir), 10);
});

test('startSoon starts the thread only after its delay, and never once stop() came first', async () => {
  const { db, dir, checkpointer, errors } = openNotes();
  checkpointer.startSoon(200);
  assert.equal(checkpointer.thread, undefined, 'no thread right after startSoon');
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000, 'SQLite checkpoints as usual meanwhile');
  await eventually(() => checkpointer.thread, 'the thread, once the delay passed');
  for (let i = 0; i < 20; i += 1) insert(db, `note ${i}`);
  await eventually(() => rowsInFile(dir) === 20, 'the 20 notes in the database file');
  assert.deepEqual(errors, []);

  const stopped = openNotes();
  stopped.checkpointer.startSoon(50);
  await stopped.checkpointer.stop();
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(stopped.checkpointer.thread, undefined, 'a stop before the delay leaves no thread');
});

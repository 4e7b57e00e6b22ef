// Unit tests of the group commit and the statement cache: writes of one turn commit together, each failure stays its own, and a statement is compiled once per SQL text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
const insert = (text: string) => () => void db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
const texts = () => (db.prepare('SELECT text FROM notes ORDER BY id').all() as { text: string }[]).map((row) => row.text);

test('commits of one turn are stored together once the turn ends, and each promise resolves only then', async () => {
  db.exec('DELETE FROM notes');
  const errors: unknown[] = [];
  const writes = new GroupCommit(db, (error) => errors.push(error));
  const committed = [writes.commit(insert('a')), writes.commit(insert('b'))];
  writes.defer(insert('c'));
  assert.deepEqual(texts(), [], 'nothing is written before the turn ends');
  assert.equal(writes.pending, 3);
  await Promise.all(committed);
  assert.deepEqual(texts(), ['a', 'b', 'c']);
  assert.equal(writes.pending, 0);
  assert.deepEqual(errors, []);
});

test('a failing write is rolled back alone: its promise rejects (or the failure is reported), the others are stored', async () => {
  db.exec('DELETE FROM notes');
  const errors: unknown[] = [];
  const writes = new GroupCommit(db, (error) => errors.push(error));
  const first = writes.commit(insert('x'));
  const duplicate = writes.commit(insert('x'));
  writes.defer(insert('x'));
  const last = writes.commit(insert('y'));
  await first;
  await assert.rejects(duplicate, /UNIQUE/);
  await last;
  assert.deepEqual(texts(), ['x', 'y']);
  assert.equal(errors.length, 1, 'the deferred duplicate is reported');
});

test('flush() commits at once; inside a transaction under way a write joins it (and rolls back with it)', async () => {
  db.exec('DELETE FROM notes');
  const writes = new GroupCommit(db, () => undefined);
  writes.defer(insert('now'));
  writes.flush();
  assert.deepEqual(texts(), ['now']);
  assert.throws(() =>
    db.transaction(() => {
      writes.defer(insert('joined'));
      assert.deepEqual(texts(), ['now', 'joined'], 'written inside the caller transaction');
      throw new Error('the caller gives up');
    })(),
  );
  assert.deepEqual(texts(), ['now'], 'rolled back with the caller');
  assert.equal(writes.pending, 0);
});

test('db.prepare answers the same compiled statement for the same SQL text', () => {
  const sql = 'SELECT COUNT(*) AS n FROM notes';
  assert.equal(db.prepare(sql), db.prepare(sql));
  assert.notEqual(db.prepare(sql), db.prepare(`${sql} WHERE id > 0`));
});

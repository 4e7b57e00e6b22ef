// Unit tests of the group commit and the statement cache: writes of one turn commit together, writes no caller waits for within a few ms, each failure stays its own, a commit survives kill -9 without waiting for the disk, and a statement is compiled once per SQL text.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../../../electron/gateway/storage/database.ts';
import { DEFERRED_COMMIT_MS, GROUP_COMMIT_LIMIT, GroupCommit, type JoinedWrite } from '../../../electron/gateway/storage/group-commit.ts';
import { tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
const insert = (text: string) => () => void db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
const texts = () => (db.prepare('SELECT text FROM notes ORDER BY id').all() as { text: string }[]).map((row) => row.text);

/**
 * Another process running `body` (module code, `openDatabase` and `GroupCommit` imported and `db` open on `dir`), once
 * it printed `marker`.
 */
async function otherProcess(dir: string, body: string, marker: string): Promise<ChildProcess> {
  const imported = (file: string) => JSON.stringify(pathToFileURL(path.resolve(`electron/gateway/storage/${file}`)).href);
  const child = spawn(
    process.execPath,
    [
      ...(process.features.typescript ? [] : ['--experimental-strip-types', '--disable-warning=ExperimentalWarning']),
      '--input-type=module',
      '-e',
      `
      const { openDatabase } = await import(${imported('database.ts')});
      const { GroupCommit } = await import(${imported('group-commit.ts')});
      const db = openDatabase(${JSON.stringify(dir)});
      ${body}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(marker)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the other process exited with ${code} before it printed ${marker}`)));
  });
  return child;
}

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

test('a transaction begun by exec or by a BEGIN statement, not a transaction function, is joined as well; once it ended, writes wait for the turn again', async () => {
  db.exec('DELETE FROM notes');
  const writes = new GroupCommit(db, () => undefined);
  // Queued first: the group commit has run (and the connection knows of no transaction) before the BEGIN below.
  await writes.commit(insert('before'));
  db.exec('BEGIN');
  writes.defer(insert('in exec'));
  assert.equal(writes.pending, 0, 'written at once, inside the transaction begun by exec');
  db.exec('ROLLBACK');
  assert.deepEqual(texts(), ['before'], 'rolled back with it');
  writes.defer(insert('after exec'));
  assert.equal(writes.pending, 1, 'outside any transaction, queued for the turn');
  writes.flush();
  db.prepare('BEGIN').run();
  const joined = writes.commit(insert('in statement'));
  assert.equal(writes.pending, 0, 'written at once, inside the transaction begun by a statement');
  db.prepare('ROLLBACK').run();
  await joined;
  assert.deepEqual(texts(), ['before', 'after exec']);
});

test('db.prepare answers the same compiled statement for the same SQL text', () => {
  const sql = 'SELECT COUNT(*) AS n FROM notes';
  assert.equal(db.prepare(sql), db.prepare(sql));
  assert.notEqual(db.prepare(sql), db.prepare(`${sql} WHERE id > 0`));
});

test('a group commit does not wait for the disk flush, and stays so for the next one; every other write runs with synchronous=FULL', async () => {
  db.exec('DELETE FROM notes');
  const writes = new GroupCommit(db, () => undefined);
  const level = () => db.pragma('synchronous', { simple: true });
  let during: unknown;
  await writes.commit(() => {
    during = level();
    insert('fast')();
  });
  assert.equal(during, 1, 'NORMAL (1) while the group commits');
  assert.equal(level(), 1, 'left at NORMAL for the next group commit (no PRAGMA between two of them)');
  await writes.commit(() => {
    during = level();
    insert('faster')();
  });
  assert.equal(during, 1);

  // Each way of writing outside the group commit sets FULL (2) back before it starts.
  const writeNoting = (text: string) => {
    during = level();
    insert(text)();
  };
  const outside: [string, () => unknown][] = [
    ['a statement run', () => insert('run')()],
    ['a statement read with RETURNING', () => db.prepare('INSERT INTO notes (text) VALUES (?) RETURNING id').get('returning')],
    ['exec', () => db.exec("INSERT INTO notes (text) VALUES ('exec')")],
    ['a transaction', () => db.transaction(() => writeNoting('transaction'))()],
    ['an immediate transaction', () => db.transaction(() => writeNoting('immediate')).immediate()],
    [
      'BEGIN run as a statement',
      () => {
        db.prepare('BEGIN').run();
        writeNoting('begin');
        db.prepare('COMMIT').run();
      },
    ],
  ];
  for (const [way, write] of outside) {
    await writes.commit(() => undefined);
    assert.equal(level(), 1, `NORMAL after the group commit, before ${way}`);
    during = undefined;
    write();
    assert.equal(level(), 2, `FULL for ${way}`);
    if (during !== undefined) assert.equal(during, 2, `FULL inside ${way}`);
  }
  assert.deepEqual(texts(), ['fast', 'faster', 'run', 'returning', 'exec', 'transaction', 'immediate', 'begin']);
  // A read changes nothing: the next group commit needs no PRAGMA either.
  await writes.commit(() => undefined);
  assert.equal(texts().length, 8);
  assert.equal(level(), 1);
});

test('what a group commit committed survives a kill -9 of the process right after it', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-group-kill-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // The child commits 200 notes in group commits, says so, then waits to be killed: nothing closes the database.
  const child = await otherProcess(
    dir,
    `
      db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
      const writes = new GroupCommit(db, () => undefined);
      for (let turn = 0; turn < 20; turn++) {
        const done = [];
        for (let i = 0; i < 10; i++) done.push(writes.commit(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('n' + turn + '-' + i)));
        await Promise.all(done);
      }
      process.stdout.write('committed\\n');
      setInterval(() => undefined, 1000);
    `,
    'committed',
  );
  child.kill('SIGKILL');
  await once(child, 'exit');
  const reopened = openDatabase(dir);
  try {
    assert.equal((reopened.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n, 200);
  } finally {
    reopened.close();
  }
});

test('writes queued when the database has closed fail one by one (reported, or rejected), never throwing out of the flush', async () => {
  const closing = tempDatabase();
  closing.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const errors: unknown[] = [];
  const writes = new GroupCommit(closing, (error) => errors.push(error));
  writes.defer(() => void closing.prepare('INSERT INTO notes (text) VALUES (?)').run('late'));
  const awaited = writes.commit(() => void closing.prepare('INSERT INTO notes (text) VALUES (?)').run('later'));
  closing.close();
  await assert.rejects(awaited, /not open/);
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /not open/);
  assert.doesNotThrow(() => writes.flush());
});

test('items of one kind are written together once per commit and settled once each; a failure replays them one by one', async () => {
  db.exec('DELETE FROM notes');
  const errors: unknown[] = [];
  const writes = new GroupCommit(db, (error) => errors.push(error));
  const calls: string[] = [];
  const settled: string[] = [];
  const notes: JoinedWrite<string> = {
    writeMany: (items) => {
      calls.push(`many ${items.join(',')}`);
      for (const item of items) insert(item)();
    },
    writeOne: (item) => {
      calls.push(`one ${item}`);
      insert(item)();
    },
    settled: (item) => settled.push(item),
  };
  writes.deferItem(notes, 'j1');
  writes.defer(insert('plain'));
  await writes.commitItem(notes, 'j2');
  assert.deepEqual(calls, ['many j1,j2'], 'one write for the kind in this commit');
  assert.deepEqual(texts(), ['plain', 'j1', 'j2'], "the kind's items after the turn's plain writes");
  assert.deepEqual(settled, ['j1', 'j2']);

  // A duplicate among the items: the batch is replayed one write at a time, and only the duplicate fails.
  calls.length = 0;
  settled.length = 0;
  writes.deferItem(notes, 'j3');
  const duplicate = writes.commitItem(notes, 'j1');
  const last = writes.commitItem(notes, 'j4');
  await assert.rejects(duplicate, /UNIQUE/);
  await last;
  assert.deepEqual(calls, ['many j3,j1,j4', 'one j3', 'one j1', 'one j4']);
  assert.deepEqual(texts(), ['plain', 'j1', 'j2', 'j3', 'j4']);
  assert.deepEqual(settled, ['j3', 'j1', 'j4'], 'each item settled once, written or failed');
  assert.deepEqual(errors, []);

  // Inside a transaction under way an item is written (alone) and settled at once.
  settled.length = 0;
  db.transaction(() => writes.deferItem(notes, 'j5'))();
  assert.deepEqual(settled, ['j5']);
  assert.equal(texts().at(-1), 'j5');
});

/** A joined kind that notes each commit's items (one `writeMany` per commit) and stores them as notes. */
function countedNotes(): { kind: JoinedWrite<string>; commits: string[][] } {
  const commits: string[][] = [];
  const kind: JoinedWrite<string> = {
    writeMany: (items) => {
      commits.push([...items]);
      for (const item of items) insert(item)();
    },
    writeOne: (item) => insert(item)(),
    settled: () => undefined,
  };
  return { kind, commits };
}

const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

test('writes no caller waits for share one commit within DEFERRED_COMMIT_MS, across turns; a waited-for write takes them along at its turn', async (t) => {
  db.exec('DELETE FROM notes');
  // The gateway's clock for timers is this test's: setImmediate (the end of a turn) stays real.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const errors: unknown[] = [];
  const writes = new GroupCommit(db, (error) => errors.push(error));
  const { kind, commits } = countedNotes();

  // A lone client's calls one after another: each queues its count in a turn of its own, none is committed at its turn's end.
  writes.deferItem(kind, 'call 1');
  await turnEnds();
  // The later writes, 1 ms on, do not put the commit off: it comes DEFERRED_COMMIT_MS after the first.
  t.mock.timers.tick(1);
  writes.defer(insert('plain'));
  writes.deferItem(kind, 'call 2');
  await turnEnds();
  t.mock.timers.tick(DEFERRED_COMMIT_MS - 2);
  await turnEnds();
  assert.deepEqual(texts(), [], 'nothing committed before DEFERRED_COMMIT_MS');
  assert.equal(writes.pending, 3);
  t.mock.timers.tick(1);
  assert.deepEqual(texts(), ['plain', 'call 1', 'call 2'], 'committed once the first has waited DEFERRED_COMMIT_MS');
  assert.deepEqual(commits, [['call 1', 'call 2']], 'in one commit');

  // A waited-for write is committed at the end of its turn, and what waits for no one goes with it.
  writes.deferItem(kind, 'call 3');
  await writes.commit(insert('charged'));
  assert.deepEqual(texts().slice(3), ['charged', 'call 3']);
  assert.deepEqual(commits.at(-1), ['call 3']);
  // Its timer went with that commit: nothing is committed twice, and a later write starts a timer of its own.
  t.mock.timers.tick(DEFERRED_COMMIT_MS);
  assert.equal(commits.length, 2);
  writes.deferItem(kind, 'call 4');
  t.mock.timers.tick(DEFERRED_COMMIT_MS);
  assert.deepEqual(commits.at(-1), ['call 4']);
  assert.deepEqual(errors, []);
});

test('a deferred write asked for at the end of its turn, a full queue, and flush() do not wait for DEFERRED_COMMIT_MS', async (t) => {
  db.exec('DELETE FROM notes');
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const writes = new GroupCommit(db, () => undefined);
  const { kind, commits } = countedNotes();

  writes.deferItem(kind, 'quota charge', true);
  await turnEnds();
  assert.deepEqual(texts(), ['quota charge'], 'endOfTurn: committed as the turn ends');

  for (let index = 0; index < GROUP_COMMIT_LIMIT; index++) writes.deferItem(kind, `n${index}`);
  await turnEnds();
  assert.equal(texts().length, 1 + GROUP_COMMIT_LIMIT, 'a queue of GROUP_COMMIT_LIMIT writes is committed as the turn ends');

  writes.defer(insert('read next'));
  writes.flush();
  assert.equal(texts().at(-1), 'read next', 'flush() commits at once');
  const made = commits.length;
  t.mock.timers.tick(DEFERRED_COMMIT_MS);
  assert.equal(commits.length, made, 'nothing is committed twice');
  assert.equal(writes.pending, 0);
});

test("a batch whose first write reads first waits out another process's write lock (the CLI's) instead of failing", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-group-busy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const own = openDatabase(dir);
  after(() => own.close());
  own.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  // The other process takes the write lock, says so, holds it 300 ms, then commits its own note.
  const child = await otherProcess(
    dir,
    `
      db.exec("BEGIN IMMEDIATE; INSERT INTO notes (text) VALUES ('cli')");
      process.stdout.write('locked\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      db.exec('COMMIT');
      db.close();
    `,
    'locked',
  );
  // Its exit is only told after the flush below, which holds this thread: the listener is in place before.
  const exited = once(child, 'exit');
  const errors: unknown[] = [];
  const writes = new GroupCommit(own, (error) => errors.push(error));
  // As a channel's success does: a read first (the channels), then writes; and a charge its caller waits for.
  writes.defer(() => void own.prepare('SELECT COUNT(*) FROM notes').get());
  writes.defer(() => void own.prepare('INSERT INTO notes (text) VALUES (?)').run('deferred'));
  const charged = writes.commit(() => void own.prepare('INSERT INTO notes (text) VALUES (?)').run('charged'));
  writes.flush();
  await charged;
  assert.deepEqual(errors, []);
  const [code] = await exited;
  assert.equal(code, 0);
  const stored = (own.prepare('SELECT text FROM notes ORDER BY id').all() as { text: string }[]).map((row) => row.text);
  assert.deepEqual(stored, ['cli', 'deferred', 'charged'], 'the batch committed after the other process did');
});

// The journal's writer on a real database: a batch is committed with the group commit's bookkeeping (no disk flush of its own), announced once stored, and a failure loses the batch, not the process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JournalRecord, JournalSummary } from '../../../shared/journal.ts';
import { JournalRecorder } from '../../../electron/gateway/services/journal.ts';
import { GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { JournalRepo } from '../../../electron/gateway/storage/journal-repo.ts';
import { tempDatabase } from '../../helpers/database.ts';

const db = tempDatabase();
const body = { contentType: null, bytes: 0, text: null, truncated: false };
const record = (path: string): JournalRecord => ({
  at: 1_700_000_000_000,
  method: 'POST',
  path,
  protocol: 'openai',
  model: 'sim-chat',
  account: 'local',
  status: 200,
  durationMs: 3,
  stream: false,
  error: null,
  token: 'default',
  usage: null,
  firstOutputMs: null,
  detail: { query: {}, requestHeaders: {}, request: body, responseHeaders: {}, response: body, timing: null },
});
const stored = () => (db.prepare('SELECT path FROM journal ORDER BY id').all() as { path: string }[]).map((row) => row.path);

test('a batch is written with the bookkeeping queued before it, in one commit without a disk flush, then announced', () => {
  db.exec('DELETE FROM journal');
  db.exec('CREATE TABLE IF NOT EXISTS notes (text TEXT NOT NULL)');
  const writes = new GroupCommit(db, (error) => assert.fail(String(error)));
  const announced: JournalSummary[] = [];
  const recorder = new JournalRecorder({
    repo: new JournalRepo(db),
    onAdded: (entry) => announced.push(entry),
    onError: (error) => assert.fail(String(error)),
    writes,
  });
  let synchronous: unknown;
  writes.defer(() => {
    synchronous = db.pragma('synchronous', { simple: true });
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('a charge');
  });
  recorder.add(record('/v1/chat/completions'));
  recorder.add(record('/v1/embeddings'));
  recorder.flush();
  assert.equal(writes.pending, 0, 'the queued bookkeeping was committed with the batch');
  assert.equal(synchronous, 1, 'NORMAL (1): the commit waits for no disk flush');
  assert.equal(db.pragma('synchronous', { simple: true }), 2, 'FULL (2) again for other writes');
  assert.deepEqual(stored(), ['/v1/chat/completions', '/v1/embeddings']);
  assert.deepEqual(
    announced.map((entry) => [entry.path, typeof entry.id]),
    [
      ['/v1/chat/completions', 'number'],
      ['/v1/embeddings', 'number'],
    ],
  );
});

test('a batch that cannot be written is reported (through the group commit) and announces nothing; the next one is written', () => {
  db.exec('DELETE FROM journal');
  const errors: unknown[] = [];
  const writes = new GroupCommit(db, (error) => errors.push(error));
  const announced: JournalSummary[] = [];
  const recorder = new JournalRecorder({
    repo: new JournalRepo(db),
    onAdded: (entry) => announced.push(entry),
    onError: (error) => errors.push(error),
    writes,
  });
  recorder.add({ ...record('/v1/broken'), protocol: undefined as unknown as 'openai' });
  recorder.flush();
  assert.equal(errors.length, 1);
  assert.deepEqual(stored(), []);
  assert.deepEqual(announced, []);
  recorder.add(record('/v1/models'));
  recorder.stop();
  assert.deepEqual(stored(), ['/v1/models']);
  assert.equal(announced.length, 1);
});

// Tests that the storage threads and the media workers load their modules through the gateway's compile cache: the stripped and compiled sources a thread loaded are in the process's cache folder, so the next thread reads them instead of stripping types again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../../electron/gateway/storage/database.ts';
import { JournalThread } from '../../../electron/gateway/storage/journal-thread.ts';
import { WalCheckpointer } from '../../../electron/gateway/storage/wal-checkpoint.ts';
import { MediaPool } from '../../../electron/gateway/workers/media-pool.ts';
import { eventually } from '../../helpers/eventually.ts';
import { filesUnder } from '../../helpers/files-under.ts';
import { tempDataDir } from '../../helpers/gateway.ts';

// This process compiles through a cache of its own, as `bin/run-ts.mjs` makes `gatehouse serve` do; it writes the cache only at exit.
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-compile-cache-'));
const enabled = module.enableCompileCache(cacheDir).status === module.constants.compileCacheStatus.ENABLED;
after(() => rmSync(cacheDir, { recursive: true, force: true }));
/** Why the tests cannot run here (NODE_DISABLE_COMPILE_CACHE, a Node without the cache): printed as the skip reason. */
const skip = enabled ? false : 'Node’s compile cache is off in this process (NODE_DISABLE_COMPILE_CACHE?): nothing to hand to the threads';

/** Whether a file of the cache folder holds `text` (the cache keeps a TypeScript module's stripped source); the cache writes a temporary file and renames it, so a file may go between listing and reading. */
function cached(text: string): boolean {
  return filesUnder(cacheDir).some(({ bytes }) => bytes.includes(text));
}

test('the WAL checkpoint thread’s modules land in the gateway’s compile cache while it runs', { skip }, async () => {
  const dir = tempDataDir();
  const db = openDatabase(dir);
  const checkpointer = new WalCheckpointer(db, { onError: () => {} });
  try {
    checkpointer.start();
    assert.ok(checkpointer.thread, 'the thread started');
    await eventually(() => cached('CATCH_UP_ROUNDS'), 'the checkpoint thread’s entry in the cache folder');
  } finally {
    await checkpointer.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the journal thread’s modules land in the gateway’s compile cache once it answered', { skip }, async () => {
  const dir = tempDataDir();
  const journal = new JournalThread(dir);
  try {
    assert.deepEqual(await journal.insert([], 10), []);
    await eventually(() => cached('openJournalStore(dataDir)'), 'the journal thread’s entry in the cache folder');
  } finally {
    await journal.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a media worker’s modules land in the gateway’s compile cache once it ran a job', { skip }, async () => {
  const pool = new MediaPool({ workers: 1 });
  try {
    assert.ok((await pool.run('chat.tokens', { turns: [{ role: 'user', text: 'hello there' }] } as never)) > 0);
    await eventually(() => cached('runMediaJob(job.kind'), 'the media worker’s entry in the cache folder');
  } finally {
    await pool.close();
  }
});

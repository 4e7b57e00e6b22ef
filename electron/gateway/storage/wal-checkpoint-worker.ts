// Entry of the WAL checkpoint thread: its own connection to the database, copying the WAL's committed pages into the database file on a timer, so the event loop never does.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { flushThreadCompileCache } from '../thread-start.ts';

/** What the thread is started with. */
export interface CheckpointWorkerData {
  file: string;
  intervalMs: number;
}

/** What the thread posts after a round that copied pages (SQLite's own counts, in WAL frames). */
export interface CheckpointReport {
  log: number;
  checkpointed: number;
}

/** Rounds run back to back when frames were committed during one, so the WAL is often fully copied and the next write restarts it from its start. */
const CATCH_UP_ROUNDS = 3;

const { file, intervalMs } = workerData as CheckpointWorkerData;
const db = new Database(file, { fileMustExist: true });
// A checkpoint syncs the WAL before copying and the database file after: what a NORMAL group commit left to the page cache reaches the disk here.
db.pragma('synchronous = FULL');
flushThreadCompileCache();

function round(): CheckpointReport {
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
  return { log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 };
}

/** What the last reported round left; an idle WAL (nothing new since) is reported once, not every tick. */
let last: CheckpointReport = { log: -1, checkpointed: -1 };

/** PASSIVE: copies what no reader still needs and waits for nobody (the event loop's writes and reads go on meanwhile). */
function checkpoint(): void {
  let result = round();
  for (let again = 0; again < CATCH_UP_ROUNDS && result.checkpointed < result.log; again += 1) result = round();
  if (result.checkpointed === 0 || (result.log === last.log && result.checkpointed === last.checkpointed)) return;
  last = result;
  parentPort?.postMessage(result satisfies CheckpointReport);
}

// An error thrown here ends the thread; the gateway reports it and starts another (wal-checkpoint.ts).
const timer = setInterval(checkpoint, intervalMs);
parentPort?.on('message', (message: 'stop') => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort?.close();
});

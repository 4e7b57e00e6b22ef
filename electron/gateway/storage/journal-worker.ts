// Entry of the journal thread: the only connection that writes the journal's store (journal.sqlite); it inserts each batch the event loop posts in one transaction, prunes past the limit, and answers reads, all in the order they were posted.
import { parentPort, workerData } from 'node:worker_threads';
import type { JournalQuery } from '../../../shared/journal.ts';
import { flushThreadCompileCache } from '../thread-start.ts';
import { JournalRepo } from './journal-repo.ts';
import type { JournalBatch } from './journal-row.ts';
import { openJournalStore, reopenJournalStore } from './journal-store.ts';

/** What the thread is started with. */
export interface JournalWorkerData {
  dataDir: string;
  /** True when an earlier thread of this process opened the file with its checks: this one only reconnects. */
  opened: boolean;
}

/** One request of the event loop; each is answered by a JournalReply with the same `id`. */
export type JournalRequest = { id: number } & (
  | { op: 'insert'; rows: JournalBatch; limit: number; batch?: number }
  | { op: 'list'; filter: Omit<JournalQuery, 'p' | 'page_size'>; page: number; pageSize: number }
  | { op: 'get'; entryId: number }
  | { op: 'clear'; testId?: string }
);

/** The answer to one request: its value, or the message of what it threw. */
export type JournalReply = { id: number } & ({ ok: true; value: unknown } | { ok: false; error: string });

const { dataDir, opened } = workerData as JournalWorkerData;
// The schema steps run here too, so the event loop never opens the file. A failure to open ends the thread (journal-thread.ts reports it).
const db = opened ? reopenJournalStore(dataDir) : openJournalStore(dataDir);
const repo = new JournalRepo(db);
flushThreadCompileCache();

function run(request: JournalRequest): unknown {
  switch (request.op) {
    case 'insert':
      return repo.insertMany(request.rows, request.limit, request.batch);
    case 'list':
      return repo.list(request.filter, request.page, request.pageSize);
    case 'get':
      return repo.get(request.entryId) ?? null;
    case 'clear':
      return repo.clear(request.testId);
  }
}

// Messages are handled one at a time, in the order posted: a read posted after a batch sees that batch committed.
parentPort?.on('message', (message: JournalRequest | 'stop') => {
  if (message === 'stop') {
    // Closing the last connection checkpoints the WAL into the file and removes it.
    db.close();
    parentPort?.close();
    return;
  }
  let reply: JournalReply;
  try {
    reply = { id: message.id, ok: true, value: run(message) };
  } catch (error) {
    reply = { id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});

// Bounds on what the gateway keeps per account from API input: stored responses and chat completions, files, batches, 3D tasks and the raw usage ledger.
import { DAY_MS } from '../time.ts';

const MiB = 1024 * 1024;

/** Storage bounds; `createGateway({ storageLimits })` may lower them (tests, embedding hosts). */
export interface StorageLimits {
  /** Largest stored response (`store: true`): its input conversation plus the Response object, in UTF-8 bytes. Over it: 400, nothing stored or charged. */
  storedResponseBytes: number;
  /** Most bytes of stored responses one account keeps; a new one beyond it evicts that account's oldest. */
  storedAccountBytes: number;
  /** Age after which a stored response is gone (not found, then deleted), as on the real API. */
  storedMaxAgeMs: number;
  /** Largest Conversations API conversation (metadata and items, UTF-8 bytes): items added beyond it are a 400, nothing added. */
  conversationBytes: number;
  /** Most bytes of conversations one account keeps; beyond it, its least recently changed conversations are evicted. */
  conversationAccountBytes: number;
  /** Most conversations one account keeps; beyond it, its least recently changed one is evicted. */
  conversationsPerAccount: number;
  /** Age after which a 3D task and its result file are gone (not found, then deleted when a new task is created). */
  tasks3dMaxAgeMs: number;
  /** Age after which raw usage records are rolled up into per-day totals (per token, endpoint and model). */
  usageRawMaxAgeMs: number;
  /** Most bytes of uploaded files (and batch output files) one account keeps; an upload beyond it is a 400. */
  filesAccountBytes: number;
  /** Most files one account keeps. */
  filesPerAccount: number;
  /** Longest a file is kept (the default, and the most `expires_after` may ask); then it is gone. */
  fileMaxAgeMs: number;
  /** Most batches one account keeps; a new one beyond it deletes the account's oldest finished batch (a 400 when none is finished). */
  batchesPerAccount: number;
  /** Age after which a finished batch is gone. */
  batchMaxAgeMs: number;
  /** Rows one pruning step handles at most (expired responses, usage records to roll up). */
  pruneBatch: number;
  /** Least time between two usage roll-up steps made at write time (sooner when the last step had more to do). */
  usageRollupEveryMs: number;
}

/** The defaults, as documented. */
export const STORAGE_LIMITS: Readonly<StorageLimits> = Object.freeze({
  storedResponseBytes: 8 * MiB,
  storedAccountBytes: 256 * MiB,
  storedMaxAgeMs: 30 * DAY_MS,
  conversationBytes: 8 * MiB,
  conversationAccountBytes: 256 * MiB,
  conversationsPerAccount: 10_000,
  tasks3dMaxAgeMs: 30 * DAY_MS,
  usageRawMaxAgeMs: 90 * DAY_MS,
  filesAccountBytes: 1024 * MiB,
  filesPerAccount: 1000,
  fileMaxAgeMs: 30 * DAY_MS,
  batchesPerAccount: 100,
  batchMaxAgeMs: 30 * DAY_MS,
  pruneBatch: 1000,
  usageRollupEveryMs: 60_000,
});

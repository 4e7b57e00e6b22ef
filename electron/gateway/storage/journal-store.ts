// The request journal's own SQLite file in the data dir (journal.sqlite): written only by the journal thread, kept apart from the product database so its inserts never wait on, or hold up, the bookkeeping's writes.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateFile } from '../private-files.ts';
import { openSqliteFile, reopenSqliteFile, type Db } from './database.ts';
import type { Migration } from './migrations/index.ts';
import { refuseNewerFile } from './schema-level.ts';

/** File name of the journal's store inside the data dir. */
export const JOURNAL_FILE = 'journal.sqlite';

/**
 * The store's own numbered schema steps (recorded in its own `schema_migrations`). Never edit one; add a new number.
 * Step 1 is the product database's `journal` table as its migrations 5 to 26 left it (ids never reused, no index: at
 * most JOURNAL_LIMIT entries); step 2 adds the packed answer text; step 3 a kept stream's answer by reference.
 */
export const JOURNAL_STEPS: readonly Migration[] = [
  {
    version: 1,
    name: 'journal',
    sql: `
CREATE TABLE journal (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  at               INTEGER NOT NULL,
  method           TEXT NOT NULL,
  path             TEXT NOT NULL,
  protocol         TEXT NOT NULL,
  model            TEXT,
  account          TEXT,
  status           INTEGER NOT NULL,
  duration_ms      INTEGER NOT NULL,
  stream           INTEGER NOT NULL,
  error            TEXT,
  detail_json      TEXT NOT NULL,
  relay_json       TEXT,
  token            TEXT,
  input_tokens     INTEGER,
  output_tokens    INTEGER,
  amount_micros    INTEGER,
  first_output_ms  INTEGER,
  request_text     TEXT,
  response_text    TEXT,
  test_id          TEXT,
  request_id       TEXT,
  source           TEXT,
  fixture          TEXT,
  cassette         TEXT
);
`,
  },
  {
    // An answer's text packed line by line (storage/journal-pack.ts; `response_text` then null): a streamed answer's
    // entry takes about a tenth of its bytes.
    version: 2,
    name: 'journal-packed-answers',
    sql: 'ALTER TABLE journal ADD COLUMN response_packed TEXT;',
  },
  {
    // A kept stream's answer by reference (storage/journal-kept-answers.ts): its template's packed text once, cut at
    // each place of a call's identity (a JSON array of the parts), and in the entry only which parts and the identity
    // (`response_text` and `response_packed` then null).
    version: 3,
    name: 'journal-kept-answers',
    sql: `
CREATE TABLE journal_kept_answers (
  id    INTEGER PRIMARY KEY,
  parts TEXT NOT NULL
);
ALTER TABLE journal ADD COLUMN kept_answer INTEGER;
ALTER TABLE journal ADD COLUMN kept_identity TEXT;
`,
  },
];

/** The path of the journal's store in a data dir. */
export const journalFileOf = (dataDir: string): string => path.join(dataDir, JOURNAL_FILE);

/**
 * The page size of a new journal.sqlite. An entry's row (its request and answer texts, 1 to 70 KB) fills 8 KiB pages
 * better than SQLite's default 4 KiB: fewer pages written to the WAL and checkpointed per entry. A file keeps the page
 * size it was made with, so one made before keeps 4 KiB (and reads as ever).
 */
export const JOURNAL_PAGE_SIZE = 8192;

/**
 * WAL pages past which the journal thread's commit checkpoints (SQLite's `wal_autocheckpoint`, 1,000 by default): about
 * 32 MiB of WAL with JOURNAL_PAGE_SIZE (16 MiB with an older file's 4 KiB pages), plus the batch that crosses them.
 * Fewer checkpoints mean fewer checkpoint syncs; and for small entries more: the journal keeps its newest JOURNAL_LIMIT
 * entries, so under load batches of small rows rewrite the same few hundred pages over and over, and a checkpoint
 * copies each of them into the file once, however often the WAL holds it. Measured (`results/2026-11-27-s11-sim.md`):
 * alone, inserting simulated JSON rows, about 1.3 µs less per entry on the thread; in the running gateway (`ab.ts`),
 * about 12 % less journal-thread CPU per simulated stream, and inside the noise for simulated JSON. A commit is as
 * durable as before: the WAL is synced at every commit (`synchronous=FULL`); a checkpoint only moves committed pages.
 */
export const JOURNAL_WAL_PAGES = 4000;

/**
 * Opens (creating if needed) `<dataDir>/journal.sqlite` with the product database's pragmas, durability and owner-only
 * modes; a new file is made with JOURNAL_PAGE_SIZE; its WAL checkpoints past JOURNAL_WAL_PAGES.
 */
export function openJournalStore(dataDir: string): Db {
  makeWithPageSize(journalFileOf(dataDir));
  return withJournalWal(openSqliteFile(dataDir, JOURNAL_FILE, JOURNAL_STEPS));
}

/**
 * The bytes of a WAL file holding JOURNAL_WAL_PAGES frames of `pageSize` (SQLite's WAL format: a 32-byte header, then a
 * 24-byte header per frame before its page).
 */
export const journalWalBytes = (pageSize: number): number => 32 + JOURNAL_WAL_PAGES * (24 + pageSize);

/**
 * `db` (the journal's connection) checkpointing past JOURNAL_WAL_PAGES, and keeping the -wal file to that size: SQLite
 * reuses a WAL file from its start after a checkpoint and never shrinks it by itself, so the file would keep the size
 * of its largest run (the 4,000 pages plus the batch that crossed them) until the connection closes. With
 * `journal_size_limit` the first commit after a checkpoint that reset the WAL truncates the file to the limit (or to
 * that commit's own frames, if more).
 */
function withJournalWal(db: Db): Db {
  db.pragma(`wal_autocheckpoint = ${JOURNAL_WAL_PAGES}`);
  db.pragma(`journal_size_limit = ${journalWalBytes(db.pragma('page_size', { simple: true }) as number)}`);
  return db;
}

/**
 * Makes a journal.sqlite that does not exist yet (owner-only, empty) with JOURNAL_PAGE_SIZE: the size is fixed by its
 * first page, which switching it to WAL writes, so it is set before the usual open does. Whatever fails here is left
 * to that open to report.
 */
function makeWithPageSize(file: string): void {
  if (existsSync(file)) return;
  let db: Db | undefined;
  try {
    ensurePrivateFile(file);
    db = new Database(file);
    db.pragma(`page_size = ${JOURNAL_PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
  } catch {
    // The data dir is not usable: openSqliteFile names why.
  } finally {
    db?.close();
  }
}

/** Opens the store again in a process that opened it once already (see `reopenSqliteFile`). */
export function reopenJournalStore(dataDir: string): Db {
  return withJournalWal(reopenSqliteFile(dataDir, JOURNAL_FILE));
}

/**
 * Refuses a `<dataDir>/journal.sqlite` a newer Gatehouse wrote, reading it only: run before the product database is
 * opened, so no file is changed when one of them is refused.
 */
export function refuseNewerJournalStore(dataDir: string): void {
  refuseNewerFile(journalFileOf(dataDir), JOURNAL_STEPS);
}

// Upgrade step: the journal entries an older product database kept (table journal) are copied into the journal's own store, ids and all.
import type { Db } from './database.ts';
import { openJournalStore } from './journal-store.ts';

/**
 * Copies the entries of the product database's `journal` table, when it still has one, into `<dataDir>/journal.sqlite`,
 * with their ids, and carries its id counter over, so an upgraded user keeps their journal and an id a console saw is
 * never given to another entry. Runs before the product migration that drops the table (027), on the table as the
 * file's level left it: columns a step not yet applied would add are left empty, as the journal reads an entry that old.
 * Entries already copied are kept as they are, so a repeat (a crash before the drop) is harmless. Nothing to carry: no
 * file is made.
 */
export function adoptLegacyJournal(productDb: Db, dataDir: string): void {
  const table = productDb.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").get();
  if (!table) return;
  const counter = productDb.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").get()
    ? ((productDb.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'journal'").get() as { seq: number } | undefined)?.seq ?? 0)
    : 0;
  const { count } = productDb.prepare('SELECT count(*) AS count FROM journal').get() as { count: number };
  if (count === 0 && counter === 0) return;
  const store = openJournalStore(dataDir);
  try {
    const known = new Set((store.pragma('table_info(journal)') as { name: string }[]).map((column) => column.name));
    const columns = (productDb.pragma('table_info(journal)') as { name: string }[])
      .map((column) => column.name)
      .filter((name) => known.has(name));
    const list = columns.join(', ');
    const insert = store.prepare(`INSERT OR IGNORE INTO journal (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
    store
      .transaction(() => {
        // Row by row: at most JOURNAL_LIMIT entries, each with bodies up to JOURNAL_BODY_LIMIT, never all in memory at once.
        // (Rows as objects: the product database shares one statement per text, whose mode must not change.)
        for (const row of productDb.prepare(`SELECT ${list} FROM journal ORDER BY id`).iterate() as Iterable<Record<string, unknown>>)
          insert.run(...columns.map((name) => row[name]));
        // Ids go on after the highest the old table ever gave (also one whose entry was cleared).
        const raised = store.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'journal'").run(counter).changes;
        if (raised === 0 && counter > 0) store.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('journal', ?)").run(counter);
      })
      .immediate();
  } finally {
    store.close();
  }
}

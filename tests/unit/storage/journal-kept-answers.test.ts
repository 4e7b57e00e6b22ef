// Unit tests of kept answers stored by reference in journal.sqlite: one template row for a stream's answers, pruned once no entry names it (and stored again when needed), forgotten with a batch rolled back, and read back as written by a repository opened afresh.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Db } from '../../../electron/gateway/storage/database.ts';
import { KEPT_PRUNE_BATCHES } from '../../../electron/gateway/storage/journal-kept-answers.ts';
import { KeptSlots } from '../../../electron/gateway/storage/journal-kept-slots.ts';
import { JournalRepo } from '../../../electron/gateway/storage/journal-repo.ts';
import { journalRowsOf, referKeptAnswers } from '../../../electron/gateway/storage/journal-row.ts';
import { openJournalStore } from '../../../electron/gateway/storage/journal-store.ts';
import { tempDirs } from '../../helpers/gateway.ts';
import { journalRecord } from '../../helpers/journal.ts';
import { identityOf, keptRecord, layoutOf } from '../../helpers/kept-layouts.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** A long layout (its lines worth packing) and calls of it, each inserted in a batch of its own. */
function journalOf(db: Db) {
  const repo = new JournalRepo(db);
  const slots = new KeptSlots();
  const layout = layoutOf(3, 30, 80);
  let call = 0;
  const insert = (records: Parameters<typeof journalRowsOf>[0], limit = 100) => {
    const batch = journalRowsOf(records);
    referKeptAnswers(batch, slots);
    return repo.insertMany(batch, limit);
  };
  const kept = (limit = 100) => {
    const made = keptRecord(5, layout, identityOf(call++, 30));
    return { id: insert([made.record], limit)[0]!, text: made.text };
  };
  return { repo, insert, kept, record: () => keptRecord(5, layout, identityOf(call++, 30)) };
}

const templates = (db: Db) => (db.prepare('SELECT COUNT(*) AS n FROM journal_kept_answers').get() as { n: number }).n;
const byReference = (db: Db) => (db.prepare('SELECT COUNT(*) AS n FROM journal WHERE kept_answer IS NOT NULL').get() as { n: number }).n;

test('a stream’s answers share one template row; once no entry names it, it is pruned, and stored again for the next answer', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const journal = journalOf(db);
    const answers = Array.from({ length: 8 }, () => journal.kept());
    for (const [index, answer] of answers.entries())
      assert.equal(journal.repo.get(answer.id)?.response.text, answer.text, `answer ${index}`);
    assert.equal(byReference(db), 5, 'from the fourth answer on');
    assert.equal(templates(db), 1);
    // Other calls push the stream's entries out (at most 5 kept); within KEPT_PRUNE_BATCHES batches its row goes too.
    for (let index = 0; index < KEPT_PRUNE_BATCHES; index++) journal.insert([journalRecord()], 5);
    assert.equal(byReference(db), 0);
    assert.equal(templates(db), 0, 'pruned');
    const again = journal.kept();
    assert.equal(journal.repo.get(again.id)?.response.text, again.text);
    assert.equal(byReference(db), 1, 'the template still proves the answer');
    assert.equal(templates(db), 1, 'stored again');
    // Clearing the journal takes the rows no entry names at once.
    journal.repo.clear();
    assert.equal(templates(db), 0);
  } finally {
    db.close();
  }
});

test('a template stored by a batch that was rolled back is stored again, and every answer reads back from a repository opened afresh', () => {
  const dir = dirs.fresh();
  const db = openJournalStore(dir);
  const kept: { id: number; text: string }[] = [];
  try {
    const journal = journalOf(db);
    for (let index = 0; index < 4; index++) kept.push(journal.kept());
    journal.repo.clear();
    // The batch stores the template again, then fails on a value SQLite cannot bind: all of it is rolled back.
    assert.throws(() => journal.insert([journal.record().record, journalRecord({ method: {} as unknown as string })]));
    assert.equal(templates(db), 0);
    kept.splice(0, kept.length, journal.kept(), journal.kept());
    assert.equal(templates(db), 1);
  } finally {
    db.close();
  }
  const reopened = openJournalStore(dir);
  try {
    const repo = new JournalRepo(reopened);
    assert.equal(byReference(reopened), 2);
    for (const [index, answer] of kept.entries()) assert.equal(repo.get(answer.id)?.response.text, answer.text, `answer ${index}`);
    // The body search reads them as written too.
    const hits = repo.list({ q: identityOf(5, 30) }, 1, 10);
    assert.deepEqual(
      hits.items.map((item) => item.id),
      [kept[0]!.id],
    );
  } finally {
    reopened.close();
  }
});

test('a template row left unnamed by a journal thread that ended before its next prune is pruned when the next one opens the file', () => {
  const dir = dirs.fresh();
  const db = openJournalStore(dir);
  try {
    const journal = journalOf(db);
    for (let index = 0; index < 4; index++) journal.kept();
    for (let index = 0; index < 3; index++) journal.insert([journalRecord()], 2);
    assert.equal(byReference(db), 0, 'its entries were pushed out');
    assert.equal(templates(db), 1, 'not pruned yet: fewer batches than KEPT_PRUNE_BATCHES');
  } finally {
    db.close();
  }
  const reopened = openJournalStore(dir);
  try {
    new JournalRepo(reopened);
    assert.equal(templates(reopened), 0);
  } finally {
    reopened.close();
  }
});

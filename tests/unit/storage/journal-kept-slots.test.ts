// Unit tests of a kept render's answer sent to the journal as a slot of its layout: more layouts than slots taking turns, in one batch and across batches, a batch whose insert failed, and a journal thread replaced by another all read back every answer as written.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { JOURNAL_KEPT_SLOTS, KeptSlots } from '../../../electron/gateway/storage/journal-kept-slots.ts';
import { JournalRepo } from '../../../electron/gateway/storage/journal-repo.ts';
import { journalRowsOf, referKeptAnswers } from '../../../electron/gateway/storage/journal-row.ts';
import { openJournalStore } from '../../../electron/gateway/storage/journal-store.ts';
import { JournalThread } from '../../../electron/gateway/storage/journal-thread.ts';
import { eventually } from '../../helpers/eventually.ts';
import { tempDirs } from '../../helpers/gateway.ts';
import { journalRecord } from '../../helpers/journal.ts';
import { identityOf, keptRecord, layoutOf } from '../../helpers/kept-layouts.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

test(`more layouts than the ${JOURNAL_KEPT_SLOTS} slots, taking turns in one batch and across batches: every answer reads back as written`, () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const slots = new KeptSlots();
    const layouts = Array.from({ length: JOURNAL_KEPT_SLOTS + 9 }, (_, seed) => layoutOf(seed, 20 + (seed % 3)));
    let call = 0;
    // Each batch goes round every layout (a slot given again within the batch), then some layouts over and over.
    for (let batchNo = 0; batchNo < 4; batchNo++) {
      const order = [...layouts.keys(), 3, 3, 70, 3, 0, 70];
      const made = order.map((seed) => keptRecord(1_000 + seed, layouts[seed]!, identityOf(call++, layouts[seed]!.identityBytes)));
      const batch = journalRowsOf(made.map((one) => one.record));
      referKeptAnswers(batch, slots);
      const ids = repo.insertMany(batch, 10_000);
      ids.forEach((id, index) => assert.equal(repo.get(id)?.response.text, made[index]!.text, `batch ${batchNo}, call ${index}`));
    }
  } finally {
    db.close();
  }
});

test('the slots a batch defines are the thread’s even when that batch’s insert failed: the next batch refers to them', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const slots = new KeptSlots();
    const layout = layoutOf(1, 24);
    const first = keptRecord(7, layout, identityOf(1, 24));
    // A value SQLite cannot bind fails the whole batch's transaction, before its second row (the layout's first use) is inserted.
    const failing = journalRowsOf([journalRecord({ method: {} as unknown as string }), first.record]);
    referKeptAnswers(failing, slots);
    assert.throws(() => repo.insertMany(failing, 100));
    const second = keptRecord(7, layout, identityOf(2, 24));
    const batch = journalRowsOf([second.record]);
    referKeptAnswers(batch, slots);
    assert.equal(typeof batch[0]![batch[0]!.length - 2], 'number', 'the layout is referred to by its slot alone');
    const [id] = repo.insertMany(batch, 100);
    assert.equal(repo.get(id!)?.response.text, second.text);
  } finally {
    db.close();
  }
});

test('a journal thread that stopped and the one started after it: the new thread is sent every layout again, and each answer reads back as written', async () => {
  const dataDir = dirs.fresh();
  const store = new JournalThread(dataDir);
  try {
    const layout = layoutOf(2, 22);
    const insert = async (call: number) => {
      const { record, text } = keptRecord(9, layout, identityOf(call, 22));
      const [id] = await store.insert([record], 100);
      assert.equal((await store.get(id!))?.response.text, text, `call ${call}`);
    };
    await insert(1);
    await insert(2);
    const first = store.thread!;
    await first.terminate();
    await eventually(async () => {
      await insert(3).catch(() => undefined);
      return store.thread !== undefined && store.thread !== first;
    }, 'another thread took over');
    await insert(4);
    await insert(5);
  } finally {
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

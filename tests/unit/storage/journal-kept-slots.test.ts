// Unit tests of a kept render's answer sent to the journal as a slot of its layout: more layouts than slots taking turns, in one batch and across batches, a batch whose insert failed, lost or could not be posted, and a journal thread replaced by another all read back every answer as written.
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { JOURNAL_KEPT_SLOTS, KeptSlots } from '../../../electron/gateway/storage/journal-kept-slots.ts';
import { JournalRepo } from '../../../electron/gateway/storage/journal-repo.ts';
import { journalRowsOf, referKeptAnswers } from '../../../electron/gateway/storage/journal-row.ts';
import { openJournalStore } from '../../../electron/gateway/storage/journal-store.ts';
import { JournalThread, type JournalThreadOptions } from '../../../electron/gateway/storage/journal-thread.ts';
import { eventually } from '../../helpers/eventually.ts';
import { tempDirs } from '../../helpers/gateway.ts';
import { journalRecord } from '../../helpers/journal.ts';
import { identityOf, keptRecord, layoutOf } from '../../helpers/kept-layouts.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** Runs `use` with a journal thread of its own data dir, stopped (and the folder removed) however it ends. */
async function withJournalThread(use: (store: JournalThread) => Promise<void>, options?: JournalThreadOptions): Promise<void> {
  const dataDir = dirs.fresh();
  const store = new JournalThread(dataDir, options);
  try {
    await use(store);
  } finally {
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `instead` in place of posting `worker` its next insert (its message lost, or its post throwing); the rest go as usual. */
function insteadOfNextInsert(worker: Worker, instead: () => void): void {
  const post = worker.postMessage.bind(worker);
  let pending = true;
  worker.postMessage = (...args: Parameters<typeof post>) => {
    if (pending && (args[0] as { op?: string }).op === 'insert') {
      pending = false;
      instead();
      return;
    }
    post(...args);
  };
}

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

test('a journal thread that stopped and the one started after it: the new thread is sent every layout again, and each answer reads back as written', () =>
  withJournalThread(async (store) => {
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
  }));

test('after a batch that never reached the thread, a slot it gave another layout is never read as the old one: the answer is stored without its text, and the next definition is read as written', () => {
  const db = openJournalStore(dirs.fresh());
  try {
    const repo = new JournalRepo(db);
    const slots = new KeptSlots();
    const [first, second] = [layoutOf(1, 24), layoutOf(2, 24)];
    const posted = (made: { record: Parameters<typeof journalRowsOf>[0][number] }[]) => {
      const batch = journalRowsOf(made.map((one) => one.record));
      referKeptAnswers(batch, slots);
      return { batch, number: slots.nextBatch() };
    };
    const one = keptRecord(1, first, identityOf(1, 24));
    const sent = posted([one]);
    assert.equal(repo.get(repo.insertMany(sent.batch, 100, sent.number)[0]!)?.response.text, one.text);
    // The event loop gives slot 0 again (as after a post that failed), and that batch never arrives.
    slots.forget();
    posted([keptRecord(2, second, identityOf(2, 24))]);
    const two = keptRecord(2, second, identityOf(3, 24));
    const after = posted([two]);
    assert.equal(typeof after.batch[0]![after.batch[0]!.length - 2], 'number', 'slot 0 named by its number alone');
    const [id] = repo.insertMany(after.batch, 100, after.number);
    assert.equal(repo.get(id!)?.response.text, null, 'not the first layout’s text with this identity');
    slots.forget();
    const three = keptRecord(2, second, identityOf(4, 24));
    const again = posted([three]);
    assert.equal(repo.get(repo.insertMany(again.batch, 100, again.number)[0]!)?.response.text, three.text);
  } finally {
    db.close();
  }
});

test('a batch whose message never reached the journal thread fails once a later request is answered, and the batches after it read back as written', () =>
  withJournalThread(async (store) => {
    const [first, second] = [layoutOf(3, 26), layoutOf(4, 26)];
    const one = keptRecord(3, first, identityOf(1, 26));
    assert.equal((await store.get((await store.insert([one.record], 100))[0]!))?.response.text, one.text);
    // The next insert's message is lost on its way (as one the thread cannot read is).
    insteadOfNextInsert(store.thread!, () => undefined);
    const lost = store.insert([keptRecord(4, second, identityOf(2, 26)).record], 100);
    const two = keptRecord(4, second, identityOf(3, 26));
    const [afterLost] = await store.insert([two.record], 100);
    await assert.rejects(lost, /never reached the journal thread/);
    // Its slot was given in the lost batch: stored without its text, never another layout's.
    assert.equal((await store.get(afterLost!))?.response.text, null);
    const three = keptRecord(4, second, identityOf(4, 26));
    assert.equal((await store.get((await store.insert([three.record], 100))[0]!))?.response.text, three.text);
    const four = keptRecord(3, first, identityOf(5, 26));
    assert.equal((await store.get((await store.insert([four.record], 100))[0]!))?.response.text, four.text);
  }));

test('a batch that cannot be posted (the clone throws) fails at once and leaves nothing waiting: the thread retires when idle, and the next batch reads back as written', () =>
  withJournalThread(
    async (store) => {
      const layout = layoutOf(5, 24);
      const one = keptRecord(5, layout, identityOf(1, 24));
      assert.equal((await store.get((await store.insert([one.record], 100))[0]!))?.response.text, one.text);
      insteadOfNextInsert(store.thread!, () => {
        throw new DOMException('could not be cloned', 'DataCloneError');
      });
      await assert.rejects(store.insert([keptRecord(5, layout, identityOf(2, 24)).record], 100), /could not be cloned/);
      // Nothing waits on the thread: it is retired once idle (a request left waiting would hold it, and the process, forever).
      await eventually(() => store.thread === undefined, 'the idle thread retired');
      const two = keptRecord(5, layout, identityOf(3, 24));
      assert.equal((await store.get((await store.insert([two.record], 100))[0]!))?.response.text, two.text);
    },
    { idleMs: 50 },
  ));

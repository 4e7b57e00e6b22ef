// Unit tests of the console stores' loads in order: an older answer never replaces a newer one shown, one overtaken by a change the store made is asked again, and a slow burst of loads still shows answers; the model aliases store as one user of it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SettingsView } from '../../../shared/settings.ts';
import { loadsInOrder } from '../../../renderer/src/stores/loads-in-order.ts';
import { createModelAliasesStore } from '../../../renderer/src/stores/model-aliases.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';
import { heldAnswer, turnsUntil, type HeldAnswer } from '../../helpers/held-answer.ts';

/** A load's fetch whose answers the test lets land one by one, and what was shown or failed, in order. */
function harness() {
  const answers: HeldAnswer<string>[] = [];
  const failures: ((error: Error) => void)[] = [];
  const shown: string[] = [];
  const loads = loadsInOrder();
  const load = () =>
    loads.run(
      () =>
        new Promise<string>((resolve, reject) => {
          const answer = heldAnswer<string>();
          answers.push(answer);
          failures.push(reject);
          void answer.promise.then(resolve);
        }),
      (value, latest) => shown.push(`${value}${latest ? '' : ' (a later load under way)'}`),
      (error, latest) => shown.push(`failed: ${(error as Error).message}${latest ? '' : ' (a later load under way)'}`),
    );
  return { answers, failures, shown, loads, load };
}

describe('loads in order', () => {
  test('an answer older than one shown is dropped; one that lands first is shown, marked as not the latest', async () => {
    const { answers, shown, load } = harness();
    const first = load();
    const second = load();
    const third = load();
    answers[1]!.resolve('second');
    await second;
    answers[2]!.resolve('third');
    await third;
    answers[0]!.resolve('first');
    await first;
    assert.deepEqual(shown, ['second (a later load under way)', 'third']);
  });

  test('a burst of loads, each slower than the next begins, still shows answers as they land', async () => {
    const { answers, shown, load } = harness();
    const under = [load()];
    for (let index = 1; index < 5; index += 1) {
      answers[index - 1]!.resolve(`answer ${index}`);
      under.push(load());
      await Promise.resolve();
    }
    answers[4]!.resolve('answer 5');
    await Promise.all(under);
    assert.equal(shown.length, 5);
    assert.equal(shown.at(-1), 'answer 5');
  });

  test('a load that a change of the store overtook is asked again, and its answer then shown', async () => {
    const { answers, shown, loads, load } = harness();
    const opened = load();
    loads.changed();
    answers[0]!.resolve('read before the change');
    assert.ok(await turnsUntil(() => answers.length === 2), 'asked again');
    answers[1]!.resolve('read after the change');
    await opened;
    assert.deepEqual(shown, ['read after the change']);
  });

  test('after a change, only the latest load asks again: an earlier one never takes a turn after it', async () => {
    const { answers, shown, loads, load } = harness();
    const pageOne = load();
    const pageTwo = load();
    loads.changed();
    answers[1]!.resolve('page 2, before the change');
    assert.ok(await turnsUntil(() => answers.length === 3), 'the latest load asks again');
    answers[0]!.resolve('page 1, before the change');
    assert.equal(await turnsUntil(() => answers.length > 3, 20), false, 'page 1 is not asked again');
    await pageOne;
    answers[2]!.resolve('page 2');
    await pageTwo;
    assert.deepEqual(shown, ['page 2']);
  });

  test('a failure older than an answer shown is dropped; the latest failure is shown', async () => {
    const { answers, failures, shown, load } = harness();
    const first = load();
    const second = load();
    answers[1]!.resolve('second');
    await second;
    failures[0]!(new Error('too late'));
    await first;
    const third = load();
    failures[2]!(new Error('the gateway is down'));
    await third;
    assert.deepEqual(shown, ['second', 'failed: the gateway is down']);
  });
});

describe('model aliases store', () => {
  const settings = (modelAliases: Record<string, string>): SettingsView =>
    ({ editable: true, saved: { modelAliases }, defaults: {}, effective: {}, pinned: {}, restartNeeded: [] }) as unknown as SettingsView;

  test('a view read before an alias was saved never comes back, so the next alias saved keeps the first', async () => {
    const reads: HeldAnswer<SettingsView>[] = [];
    let stored: Record<string, string> = {};
    const admin = fakeAdmin({
      getSettings: () => {
        const read = heldAnswer<SettingsView>();
        reads.push(read);
        return read.promise;
      },
      saveSettings: (input) => {
        stored = { ...(input.body.modelAliases as Record<string, string>) };
        return settings(stored);
      },
    });
    const store = createModelAliasesStore(admin.call);
    const opened = store.getState().load();
    reads[0]!.resolve(settings({}));
    await opened;
    const again = store.getState().load();
    assert.ok(await store.getState().put('fast', 'sim-chat'));
    reads[1]!.resolve(settings({}));
    assert.ok(await turnsUntil(() => reads.length === 3), 'the view read before the save is asked again');
    reads[2]!.resolve(settings(stored));
    await again;
    assert.ok(await store.getState().put('smart', 'sim-reason'));
    assert.deepEqual(stored, { fast: 'sim-chat', smart: 'sim-reason' });
  });
});

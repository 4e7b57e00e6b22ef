// Unit tests of a synchronous stream stage: over a long stream (more items than it keeps made at once) it gives what the async stage gives, in order, with each Hold where it stood.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hold, stepAsync, stepAtHand, type Steps } from '../../../electron/gateway/protocols/at-hand.ts';

/** Each number becomes itself and its double (none for a multiple of 7); the stream opens with 'begin' and closes with 'end'. */
const steps: Steps<number, string> = {
  begin: (out) => out.push('begin'),
  step: (item, out) => {
    if (item % 7 === 0) return;
    out.push(`${item}`, `${item * 2}`);
  },
  end: (out) => out.push('end'),
};

test('a long stream at hand gives the async stage its items, in order, and each Hold where it stood', async () => {
  const items = Array.from({ length: 300 }, (_, index) => index);
  const holds = new Map([5, 64, 65, 200].map((at) => [at, new Hold(undefined)]));
  const withHolds = items.flatMap((item) => (holds.has(item) ? [holds.get(item)!, item] : [item]));
  const atHand = [...stepAtHand(withHolds, steps)];
  const expected: string[] = [];
  for await (const made of stepAsync(
    (async function* () {
      yield* items;
    })(),
    steps,
  ))
    expected.push(made);
  assert.deepEqual(
    atHand.filter((made) => !(made instanceof Hold)),
    expected,
  );
  for (const [at, hold] of holds) {
    const position = atHand.indexOf(hold);
    const following = items.slice(at).find((item) => item % 7 !== 0)!;
    assert.equal(atHand[position + 1], `${following}`, `the Hold before ${at} stands before what ${following} makes`);
    const before = items.slice(0, at).findLast((item) => item % 7 !== 0);
    assert.equal(
      atHand[position - 1],
      before === undefined ? 'begin' : `${before * 2}`,
      `the Hold before ${at} stands after what came before`,
    );
  }
});

test('items a stage gathers leave as one item where the first stood: a Hold or an item that does not join ends the run; the async stage steps each', async () => {
  // Even numbers join a run (of evens only); a run is made as its items joined by '+'.
  const gathering: Steps<number, string> = {
    ...steps,
    gather: { joins: (item) => item % 2 === 0, made: (run) => run.join('+') },
  };
  const hold = new Hold(undefined);
  const atHand = [...stepAtHand([2, 4, 6, 1, 8, hold, 10, 12, 3, 14], gathering)];
  assert.deepEqual(atHand, ['begin', '2+4+6', '1', '2', '8', hold, '10+12', '3', '6', '14', 'end']);
  const each: string[] = [];
  for await (const made of stepAsync(
    (async function* () {
      yield* [2, 4, 3];
    })(),
    gathering,
  ))
    each.push(made);
  assert.deepEqual(each, ['begin', '2', '4', '4', '8', '3', '6', 'end'], 'the async stage steps each item');
});

test('the item that ends a run is stepped on its own, even when it could start the next run (a run joins items of one tens)', () => {
  const byTens: Steps<number, string> = {
    ...steps,
    gather: { joins: (item, run) => run.length === 0 || Math.floor(run[0]! / 10) === Math.floor(item / 10), made: (run) => run.join('+') },
  };
  assert.deepEqual([...stepAtHand([11, 12, 31, 32, 33], byTens)], ['begin', '11+12', '31', '62', '32+33', 'end']);
});

test('a stage at hand opens its items only once what it began with is given out, closes them when its consumer stops or a step throws, and gives nothing more once stopped', () => {
  const log: string[] = [];
  const source = (values: number[]) => ({
    [Symbol.iterator]: function* () {
      log.push('opened');
      try {
        yield* values;
      } finally {
        log.push('closed');
      }
    },
  });
  const stopped = stepAtHand(source([1, 2, 3]), steps);
  assert.deepEqual(stopped.next(), { value: 'begin', done: false });
  assert.deepEqual(log, [], 'not opened while what began the stream is given out');
  assert.deepEqual(stopped.next(), { value: '1', done: false });
  assert.deepEqual(log, ['opened']);
  stopped.return!();
  assert.deepEqual(log, ['opened', 'closed'], 'closed when the consumer stops');
  assert.equal(stopped.next().done, true, 'the second piece made of 1 is not given out once stopped');

  log.length = 0;
  const throwing = stepAtHand(source([1, 2]), {
    ...steps,
    step: (item, out) => {
      if (item === 2) throw new Error('a bad item');
      out.push(`${item}`);
    },
  });
  assert.throws(() => [...throwing], /a bad item/);
  assert.deepEqual(log, ['opened', 'closed'], 'closed when a step throws');
  assert.equal(throwing.next().done, true);

  log.length = 0;
  const unopened = stepAtHand(source([1]), steps);
  unopened.next();
  unopened.return!();
  assert.deepEqual(log, [], 'never opened, so never closed');
});

// Unit tests of the bench's turn order and c=1 rounds: each round's order is a shuffle of every contender, the same in every run, and over a run's rounds two contenders meet at more than one distance (the rotated order kept them at one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundsAt, SINGLE_CALL_ROUND_SPLIT, turnOrder } from '../../../bench/lib/rounds.ts';

test('every round runs each contender once, in an order the same in every run', () => {
  for (const count of [1, 2, 3, 8]) {
    for (let round = 0; round < 30; round++) {
      const order = turnOrder(round, count);
      assert.deepEqual(
        [...order].sort((a, b) => a - b),
        Array.from({ length: count }, (_, index) => index),
      );
      assert.deepEqual(turnOrder(round, count), order);
    }
  }
});

test('over the rounds of a c=1 case, the gateway meets its floor at several distances, and the older checkout too', () => {
  // The relay section's eight contenders: the gateway with its journal on is 1, the bare node:http relay 5, BEFORE 6.
  const { rounds } = roundsAt({ rounds: 5, roundMs: 2000 }, 1);
  const distances = (a: number, b: number) =>
    new Set(
      Array.from({ length: rounds }, (_, round) => {
        const order = turnOrder(round, 8);
        return Math.abs(order.indexOf(a) - order.indexOf(b));
      }),
    );
  assert.ok(distances(1, 5).size >= 3, `gateway to floor: ${[...distances(1, 5)].join(', ')}`);
  assert.ok(distances(6, 5).size >= 3, `BEFORE to floor: ${[...distances(6, 5)].join(', ')}`);
  // The rounds do not all start with the same contender.
  assert.ok(new Set(Array.from({ length: rounds }, (_, round) => turnOrder(round, 8)[0])).size > 1);
});

test('a c=1 case runs the same time in more, shorter rounds; other concurrencies as planned', () => {
  assert.deepEqual(roundsAt({ rounds: 5, roundMs: 2000 }, 1), {
    rounds: 5 * SINGLE_CALL_ROUND_SPLIT,
    roundMs: 2000 / SINGLE_CALL_ROUND_SPLIT,
  });
  assert.deepEqual(roundsAt({ rounds: 5, roundMs: 2000 }, 32), { rounds: 5, roundMs: 2000 });
});

// Unit tests of chat metering: a stream is charged once, on its usage delta (at hand: after a Hold on the commit), or for what it delivered when it stops without one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatDelta } from '../../../electron/gateway/protocols/neutral/deltas.ts';
import type { Principal } from '../../../electron/gateway/principal.ts';
import type { BillingService, Usage } from '../../../electron/gateway/services/billing.ts';
import { ChatMetering } from '../../../electron/gateway/services/chat-metering.ts';
import { Hold } from '../../../electron/gateway/protocols/at-hand.ts';
import { countTokens } from '../../../electron/gateway/protocols/neutral/tokens.ts';

const DELTAS: ChatDelta[] = [
  { type: 'text', choice: 0, text: 'Hello,' },
  { type: 'text', choice: 0, text: ' world' },
  { type: 'text', choice: 0, text: '!' },
  { type: 'finish', choice: 0, reason: 'stop' },
  { type: 'usage', inputTokens: 12, outputTokens: 4 },
];

function metering() {
  const charges: Usage[] = [];
  /** How each charge was committed: awaited before the stream went on, or left to the turn's group commit. */
  const ways: ('committed' | 'answered')[] = [];
  const billing = {
    chargeCommitted: async (_principal: Principal, usage: Usage) => (charges.push(usage), ways.push('committed'), 0),
    chargeAnswered: (_principal: Principal, usage: Usage) => (charges.push(usage), ways.push('answered'), 0),
  } as unknown as BillingService;
  const bill = { principal: {} as Principal, endpoint: '/v1/chat/completions', model: 'm' };
  const stream = (deltas: ChatDelta[], inputTokens?: number) => ({
    ...(inputTokens !== undefined && { inputTokens }),
    async *[Symbol.asyncIterator]() {
      yield* deltas;
    },
  });
  return {
    charges,
    ways,
    meter: (deltas: ChatDelta[], inputTokens?: number) => new ChatMetering(billing).meter(stream(deltas, inputTokens), bill, () => 10),
  };
}

test('a whole stream is charged once, from its usage delta, committed before the usage event goes on', async () => {
  const { charges, ways, meter } = metering();
  const seen: ChatDelta[] = [];
  for await (const delta of meter(DELTAS)) seen.push(delta);
  assert.deepEqual(seen, DELTAS);
  assert.deepEqual(charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 12, outputTokens: 4 }]);
  assert.deepEqual(ways, ['committed']);
});

test('a stream left after two deltas is charged once for the input and the tokens delivered, with nobody waiting', async () => {
  const { charges, ways, meter } = metering();
  let count = 0;
  for await (const _delta of meter(DELTAS, 11)) if (++count === 2) break;
  // "Hello, world" is 3 tokens; the stream's own input count wins over the estimate.
  assert.deepEqual(charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 11, outputTokens: 3 }]);
  assert.deepEqual(ways, ['answered']);
});

test('a producer that stops without usage is charged for what it sent, with the estimate as input', async () => {
  const { charges, meter } = metering();
  const cut = [
    ...DELTAS.slice(0, 1),
    { type: 'tool_call', choice: 1, call: 0, id: 'c', name: 'f' },
    { type: 'tool_arguments', choice: 1, call: 0, fragment: '{"a":' },
  ] as ChatDelta[];
  for await (const _delta of meter(cut)) void _delta;
  // "Hello," is 2 tokens, the arguments {"a": 5.
  assert.deepEqual(charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 10, outputTokens: 2 + 5 }]);
});

test("a relayed answer is charged by the upstream's usage; the input estimate is asked only when the usage lacks the input", () => {
  const { charges } = metering();
  const billing = {
    chargeAnswered: (_principal: Principal, usage: Usage) => (charges.push(usage), 0),
  } as unknown as BillingService;
  const bill = { principal: {} as Principal, endpoint: '/v1/chat/completions', model: 'm' };
  let asked = 0;
  const estimate = () => (asked++, 10);
  const relayed = new ChatMetering(billing);
  relayed.chargeRelayed(bill, { inputTokens: 7, outputTokens: 3, delivered: { tokens: countTokens('Hello, world!') } }, estimate);
  assert.equal(asked, 0, 'a whole answer carries its input tokens');
  relayed.chargeRelayed(bill, { delivered: { tokens: countTokens('Hello, world!') } }, estimate);
  assert.equal(asked, 1, 'a stream cut before its usage asks the estimate');
  assert.deepEqual(
    charges.map(({ inputTokens, outputTokens }) => [inputTokens, outputTokens]),
    [
      [7, 3],
      [10, 4],
    ],
  );
});

/** A stream at hand over `deltas`, metered with a billing whose commit resolves when `commit` does. */
function meteredAtHand(deltas: Iterable<ChatDelta>, commit: Promise<void>) {
  const charges: Usage[] = [];
  const ways: ('committed' | 'answered')[] = [];
  const billing = {
    chargeCommitted: async (_principal: Principal, usage: Usage) => (charges.push(usage), ways.push('committed'), await commit, 0),
    chargeAnswered: (_principal: Principal, usage: Usage) => (charges.push(usage), ways.push('answered'), 0),
  } as unknown as BillingService;
  const told = { firstOutput: 0 };
  const principal = { notes: { firstOutput: () => told.firstOutput++ } } as unknown as Principal;
  const bill = { principal, endpoint: '/v1/chat/completions', model: 'm' };
  const stream = {
    [Symbol.asyncIterator]: () => {
      throw new Error('a stream at hand is pulled synchronously here');
    },
    atHand: () => deltas,
  };
  const metered = new ChatMetering(billing).meter(stream, bill, () => 10);
  return { charges, ways, told, items: metered.atHand!()[Symbol.iterator]() };
}

test('at hand: the deltas pass synchronously, the first output told when sent; the usage delta comes after a Hold that resolves once the charge is committed', async () => {
  let commit!: () => void;
  const { charges, ways, told, items } = meteredAtHand(DELTAS, new Promise((resolve) => (commit = resolve)));
  let next = items.next();
  assert.ok(next.value instanceof Hold && next.value.done === undefined && next.value.sent, 'a mark before the first output');
  assert.equal(told.firstOutput, 0, 'the first output is told when the writer sends it, not when it is made');
  next.value.sent();
  assert.equal(told.firstOutput, 1);
  const seen: unknown[] = [];
  next = items.next();
  while (!next.done && !(next.value instanceof Hold)) {
    seen.push(next.value);
    next = items.next();
  }
  assert.deepEqual(seen, DELTAS.slice(0, 4));
  assert.ok(next.value instanceof Hold && next.value.done, 'a Hold before the usage delta');
  assert.deepEqual(ways, ['committed'], 'the charge started with the usage delta');
  let settled = false;
  void next.value.done.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'the Hold waits for the commit');
  commit();
  await next.value.done;
  assert.deepEqual(items.next().value, DELTAS[4]);
  assert.equal(items.next().done, true);
  assert.deepEqual(charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 12, outputTokens: 4 }]);
  assert.deepEqual(ways, ['committed'], 'charged once');
});

test('at hand: a stream closed after two deltas, or whose commit failed, is charged once more for what it delivered', async () => {
  const left = meteredAtHand(DELTAS, Promise.resolve());
  left.items.next(); // the first output's mark
  left.items.next();
  left.items.next();
  left.items.return!();
  assert.deepEqual(left.charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 10, outputTokens: 3 }]);
  assert.deepEqual(left.ways, ['answered']);

  const failed = meteredAtHand(DELTAS, Promise.reject(new Error('the disk is gone')));
  let next = failed.items.next();
  while (!next.done && !(next.value instanceof Hold && next.value.done)) next = failed.items.next();
  assert.ok(next.value instanceof Hold && next.value.done, 'a Hold before the usage delta');
  await assert.rejects(next.value.done, /the disk is gone/);
  failed.items.return!();
  assert.deepEqual(failed.ways, ['committed', 'answered'], 'the failed commit is followed by the charge for what was delivered');
});

test('at hand: a stream closed once its commit went through (the client left during the wait) is charged once', async () => {
  const { ways, items } = meteredAtHand(DELTAS, Promise.resolve());
  let next = items.next();
  while (!next.done && !(next.value instanceof Hold && next.value.done)) next = items.next();
  assert.ok(next.value instanceof Hold && next.value.done, 'a Hold before the usage delta');
  await next.value.done;
  items.return!();
  assert.deepEqual(ways, ['committed']);
});

test('at hand: a stream cut short is charged for its outputs counted apart, text and tool arguments of two choices, as the async path counts them', () => {
  const cut = [
    ...DELTAS.slice(0, 1),
    { type: 'tool_call', choice: 1, call: 0, id: 'c', name: 'f' },
    { type: 'tool_arguments', choice: 1, call: 0, fragment: '{"a":' },
  ] as ChatDelta[];
  const { charges, items } = meteredAtHand(cut, Promise.resolve());
  for (let next = items.next(); !next.done; next = items.next()) void next.value;
  // "Hello," is 2 tokens, the arguments {"a": 5, as in the async test above.
  assert.deepEqual(charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 10, outputTokens: 2 + 5 }]);
});

test('at hand from an iterator (a join of several prompts): closed before the end charge when the consumer stops; one that throws or never opens is charged for what was delivered', () => {
  const order: string[] = [];
  const left = meteredAtHand(
    (function* () {
      try {
        yield* DELTAS;
      } finally {
        order.push('closed');
      }
    })(),
    Promise.resolve(),
  );
  left.items.next(); // the first output's mark
  left.items.next();
  left.items.next();
  left.ways.push = (...ways) => (order.push(...ways), ways.length);
  left.items.return!();
  assert.deepEqual(order, ['closed', 'answered'], 'the deltas are closed, then what was delivered is charged');
  assert.deepEqual(left.charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 10, outputTokens: 3 }]);
  assert.equal(left.items.next().done, true);
  left.items.return!();
  assert.equal(left.charges.length, 1, 'charged once');

  const broken = meteredAtHand(
    (function* () {
      yield* DELTAS.slice(0, 2);
      throw new Error('the engine broke');
    })(),
    Promise.resolve(),
  );
  const seen: unknown[] = [];
  assert.throws(() => {
    for (let next = broken.items.next(); !next.done; next = broken.items.next()) seen.push(next.value);
  }, /the engine broke/);
  assert.equal(seen.length, 3, 'the first output mark and two deltas');
  assert.deepEqual(broken.ways, ['answered']);
  assert.deepEqual(broken.charges, [{ endpoint: '/v1/chat/completions', model: 'm', inputTokens: 10, outputTokens: 3 }]);
  assert.equal(broken.items.next().done, true, 'ended once it threw');

  let opened = false;
  const unpulled = meteredAtHand({ [Symbol.iterator]: () => ((opened = true), DELTAS[Symbol.iterator]()) }, Promise.resolve());
  unpulled.items.return!();
  assert.equal(opened, false, 'deltas never pulled are never opened');
  assert.deepEqual(unpulled.charges, [], 'nor charged: nothing was delivered, and the stream never started');
});

test('at hand: a delta the meter cannot read ends the stream with that error, even when closing the deltas fails too', () => {
  let closed = 0;
  const failing = meteredAtHand(
    {
      [Symbol.iterator]: () => ({
        next: () => ({ value: null as unknown as ChatDelta, done: false }),
        return: () => {
          closed++;
          throw new Error('closing failed');
        },
      }),
    },
    Promise.resolve(),
  );
  assert.throws(
    () => failing.items.next(),
    (error: Error) => error instanceof TypeError,
  );
  assert.equal(closed, 1, 'the deltas were closed');
  assert.equal(failing.items.next().done, true, 'ended once it threw');
});

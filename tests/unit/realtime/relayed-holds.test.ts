// Unit tests of a relayed realtime session's holds: a client's bound to the response the upstream starts next, one started by the upstream held or refused, each settled by its response's id, the unnamed by order, and the count bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RELAYED_HOLDS_LIMIT, RelayedHolds } from '../../../electron/gateway/realtime/relayed-holds.ts';
import type { Reservation } from '../../../electron/gateway/services/quota-ledger.ts';

/** Holds named in the order made (a client's after its event id, else `upstream<n>`), the released ones listed, and a switch to refuse. */
function ledger() {
  const released: string[] = [];
  let made = 0;
  const state = { refuse: false };
  const asked: (Record<string, unknown> | undefined)[] = [];
  const holds = new RelayedHolds((eventId, response) => {
    asked.push(response);
    if (state.refuse) return { event: '{"type":"error"}' };
    const name = eventId ?? `upstream${++made}`;
    const reservation: Reservation = {
      micros: 1,
      release: () => void released.push(name),
      during: async (work) => work(),
    };
    return reservation;
  });
  return { holds, released, state, asked };
}

test("a client's hold is bound to the response the upstream starts next, and each response's end lets go of its own hold", () => {
  const { holds, released } = ledger();
  assert.equal(holds.admit('evt_a', undefined), null);
  // r1 answers the client's create (bound to its hold); r2 is the upstream's own, held from its start.
  assert.equal(holds.started('r1', undefined), null);
  assert.equal(holds.started('r2', undefined), null);
  holds.settled('r2');
  assert.deepEqual(released, ['upstream1'], "r2's end lets go of r2's hold, not of the client's r1 is still using");
  holds.settled('r1');
  assert.deepEqual(released, ['upstream1', 'evt_a']);
  holds.close();
  assert.deepEqual(released, ['upstream1', 'evt_a'], 'nothing let go twice');
});

test("a refused response's end lets go of none; a response never named settles the oldest client's hold; the close lets go of the rest", () => {
  const { holds, released, state } = ledger();
  assert.equal(holds.admit('evt_a', undefined), null);
  assert.equal(holds.started('r1', undefined), null);
  state.refuse = true;
  assert.deepEqual(holds.started('r2', undefined), { event: '{"type":"error"}' });
  assert.equal(holds.admit('evt_b', undefined), '{"type":"error"}');
  state.refuse = false;
  holds.settled('r2');
  assert.deepEqual(released, []);
  assert.equal(holds.admit('evt_c', undefined), null);
  holds.settled(undefined);
  assert.deepEqual(released, ['evt_c']);
  holds.close();
  assert.deepEqual(released, ['evt_c', 'evt_a']);
});

test(`past ${RELAYED_HOLDS_LIMIT} responses started and never ended, the oldest hold is let go: the session's holds stay bounded`, () => {
  const { holds, released } = ledger();
  for (let n = 0; n <= RELAYED_HOLDS_LIMIT; n++) assert.equal(holds.started(`r${n}`, undefined), null);
  assert.deepEqual(released, ['upstream1']);
  holds.close();
  assert.equal(released.length, RELAYED_HOLDS_LIMIT + 1);
});

test('a response the upstream starts on its own is held for its own max_output_tokens: the hold is asked with its response object', () => {
  const { holds, asked } = ledger();
  assert.equal(holds.started('r1', { id: 'r1', max_output_tokens: 200 }), null);
  assert.deepEqual(asked, [{ id: 'r1', max_output_tokens: 200 }]);
});

test('once the upstream announces its responses, the end of one it never announced (or a second end) lets go of no hold the client is waiting on', () => {
  const { holds, released } = ledger();
  assert.equal(holds.started('r1', undefined), null);
  holds.settled('r1');
  assert.equal(holds.admit('evt_a', undefined), null);
  holds.settled('r1');
  holds.settled('unknown');
  assert.deepEqual(released, ['upstream1'], "the client's hold is kept for its own response");
  assert.equal(holds.started('r2', undefined), null);
  holds.settled('r2');
  assert.deepEqual(released, ['upstream1', 'evt_a']);
});

test("a client's create the upstream refused (an error naming its event id) lets go of its hold at once, not at the next response", () => {
  const { holds, released } = ledger();
  assert.equal(holds.admit('evt_a', undefined), null);
  assert.equal(holds.admit('evt_b', undefined), null);
  holds.rejected('evt_a');
  holds.rejected('evt_unknown');
  assert.deepEqual(released, ['evt_a']);
  // The next response started is evt_b's.
  assert.equal(holds.started('r1', undefined), null);
  holds.settled('r1');
  assert.deepEqual(released, ['evt_a', 'evt_b']);
});

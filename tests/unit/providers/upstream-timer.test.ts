// Unit tests of the upstream calls' time limits on their one shared clock: calls in flight hold no timer each, a call with a nearer limit started after one with a farther limit still runs out first, and a stopped call never does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamTimer, type UpstreamTimeout } from '../../../electron/gateway/providers/upstream-timer.ts';
import { eventually } from '../../helpers/eventually.ts';

/** A call's stand-in: what its timer aborted it with, if anything. */
function call(): { reason: UpstreamTimeout | undefined; abort(reason: UpstreamTimeout): void } {
  return {
    reason: undefined,
    abort(reason) {
      this.reason ??= reason;
    },
  };
}

const LONG = { timeoutMs: 600_000, idleTimeoutMs: 600_000, deadlineMs: 600_000 };
const timersHeld = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

test('a hundred calls in flight hold no Node timer each (nor keep the process up)', () => {
  const before = timersHeld();
  const timers = Array.from({ length: 100 }, () => new UpstreamTimer(LONG, call()));
  try {
    assert.ok(timersHeld() - before <= 1, `${timersHeld() - before} timers held for 100 calls`);
  } finally {
    for (const timer of timers) timer.stop();
  }
});

test('a call with a nearer limit, started after calls with farther ones, runs out first; a stopped one never does', async () => {
  const far = call();
  const farTimer = new UpstreamTimer(LONG, far);
  const stopped = call();
  const stoppedTimer = new UpstreamTimer({ timeoutMs: 20, idleTimeoutMs: 600_000, deadlineMs: 600_000 }, stopped);
  stoppedTimer.stop();
  const near = call();
  const nearTimer = new UpstreamTimer({ timeoutMs: 30, idleTimeoutMs: 600_000, deadlineMs: 600_000 }, near);
  try {
    const reason = await eventually(() => near.reason, 'the near call ran out of time');
    assert.match(reason.message, /no response headers within 30 ms/);
    assert.equal(nearTimer.expired, reason);
    // Checked once the near call ran out, which came after the stopped call's limit: neither other call ran out.
    assert.equal(stopped.reason, undefined);
    assert.equal(far.reason, undefined);
  } finally {
    farTimer.stop();
    nearTimer.stop();
  }
});

test('a read waiting past the idle limit is woken with the UpstreamTimeout once the headers came', async () => {
  const upstream = call();
  const timer = new UpstreamTimer({ timeoutMs: 600_000, idleTimeoutMs: 30, deadlineMs: 600_000 }, upstream);
  timer.headersArrived();
  let woken: UpstreamTimeout | undefined;
  assert.equal(
    timer.waitFor((error) => (woken = error)),
    undefined,
  );
  try {
    const reason = await eventually(() => woken, 'the waiting read woken');
    assert.match(reason.message, /sent nothing for 30 ms/);
    assert.equal(upstream.reason, reason);
  } finally {
    timer.stop();
  }
});

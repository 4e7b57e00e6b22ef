// Unit tests of the SSE writer with a fake response: a slow reader holds the producer back (backpressure), a client that leaves stops it, a failing producer ends the stream with an error frame; events at hand go out in few writes, after their Holds; data-only events (Gemini) framed each as its item.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EventRun, type NamedEvent } from '../../../electron/gateway/protocols/named-event.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import { Hold } from '../../../electron/gateway/protocols/at-hand.ts';
import { AT_HAND_WRITE_CHARS, writeFrame, writeJsonArray, writeSse, writeSseData } from '../../../electron/gateway/server/sse.ts';

/**
 * A response whose socket buffer is full (`write` returns false, a write's callback waits) until `accept()`; each
 * `drain()` sends what was written (the callbacks waiting run, as a socket's completed writes call theirs), which lets the
 * writer go on. It never emits 'drain': the writer must not wait for one (Node 24.22 may never send it).
 */
class FakeResponse extends EventEmitter {
  frames: string[] = [];
  ended = false;
  private full = true;
  private unsent: (() => void)[] = [];
  writeHead() {}
  flushHeaders() {}
  write(chunk: string, callback?: () => void) {
    if (chunk !== '') this.frames.push(chunk);
    if (callback && this.full) this.unsent.push(callback);
    else if (callback) process.nextTick(callback);
    return !this.full;
  }
  drain() {
    for (const callback of this.unsent.splice(0)) callback();
  }
  end(chunk?: string) {
    if (chunk) this.frames.push(chunk);
    this.ended = true;
  }
  destroy() {}
  accept() {
    this.full = false;
  }
}

function fakeCall() {
  const raw = new FakeResponse();
  const reply = { hijack() {}, getHeaders: () => ({}), raw } as unknown as FastifyReply;
  return { raw, reply, request: {} as FastifyRequest };
}

/** A producer of `count` events that records how many were pulled and whether it was closed. */
function producer(count: number, failAfter?: number) {
  const state = { pulled: 0, closed: false };
  async function* events(): AsyncGenerator<NamedEvent> {
    try {
      for (let index = 0; index < count; index++) {
        if (index === failAfter) throw new Error('the producer broke');
        state.pulled++;
        yield { data: { index } };
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, events: events() };
}

const ticks = async (count = 20) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('a slow reader holds the producer back: one frame per drain, never the whole answer buffered', async () => {
  const { raw, reply, request } = fakeCall();
  const { state, events } = producer(100);
  const done = writeSse(request, reply, events);
  await ticks();
  assert.equal(raw.frames.length, 1, 'one frame written, then the writer waits for drain');
  assert.ok(state.pulled <= 2, `pulled ${state.pulled} of 100 while the client read nothing`);
  raw.drain();
  await ticks();
  assert.equal(raw.frames.length, 2);
  assert.ok(state.pulled <= 3);
  raw.accept();
  raw.drain();
  await done;
  assert.equal(raw.frames.length, 100);
  assert.equal(raw.frames[99], 'data: {"index":99}\n\n');
  assert.ok(raw.ended);
});

test('when the client goes away the writer stops pulling and closes the producer', async () => {
  const { raw, reply, request } = fakeCall();
  const { state, events } = producer(100);
  const done = writeSse(request, reply, events);
  await ticks();
  raw.emit('close');
  await done;
  assert.ok(state.closed, "the producer's cleanup ran");
  assert.ok(state.pulled <= 2, `pulled ${state.pulled}`);
  assert.equal(raw.ended, false);
});

test('a producer that fails after the headers ends the stream with the error frame and reports the failure', async () => {
  const { raw, reply, request } = fakeCall();
  raw.accept();
  const { events } = producer(10, 2);
  const reported: unknown[] = [];
  await writeSse(request, reply, events, {
    errorEvent: (error) => ({ name: 'error', data: { kind: error.kind } }),
    report: (error) => reported.push(error),
  });
  assert.deepEqual(raw.frames, ['data: {"index":0}\n\n', 'data: {"index":1}\n\n', 'event: error\ndata: {"kind":"internal"}\n\n']);
  assert.ok(raw.ended);
  assert.equal((reported[0] as Error).message, 'the producer broke');
});

test('a finished list of events (as the audio route passes) is written whole', async () => {
  const { raw, reply, request } = fakeCall();
  raw.accept();
  await writeSse(request, reply, [{ data: 1 }, { name: 'x', data: 2 }]);
  assert.deepEqual(raw.frames, ['data: 1\n\nevent: x\ndata: 2\n\n'], 'one write');
  assert.ok(raw.ended);
});

test('a run of events at hand leaves as its frames in the one write; under a stream fault its events count one by one', async () => {
  const events: NamedEvent[] = [1, 2, 3, 4].map((index) => ({ data: { index } }));
  const run = () => new EventRun({ head: '{"index":', quoted: ['1', '2', '3', '4'], tail: '}' }, () => events);
  const whole = fakeCall();
  whole.raw.accept();
  await writeSse(whole.request, whole.reply, [{ data: { index: 0 } }, run(), { data: { index: 5 } }]);
  assert.deepEqual(whole.raw.frames, [[0, 1, 2, 3, 4, 5].map((index) => `data: {"index":${index}}\n\n`).join('')], 'one write');
  for (const fault of ['disconnect', 'malformed'] as const) {
    const { raw, reply, request } = fakeCall();
    raw.accept();
    (request as FastifyRequest & { gatehouseFault?: string }).gatehouseFault = fault;
    await writeSse(request, reply, [{ data: { index: 0 } }, run(), { data: { index: 5 } }]);
    const written = [0, 1, 2].map((index) => `data: {"index":${index}}\n\n`);
    assert.deepEqual(
      raw.frames,
      fault === 'disconnect' ? written : [...written, 'data: {"malformed": tru\n\n'],
      `${fault}: after 3 frames`,
    );
  }
});

test('a run of data-only elements at hand (a Gemini stream) is written as its elements: SSE data frames, or JSON array elements after the separator', async () => {
  const elements = [1, 2, 3].map((index) => ({ index }));
  const run = () => new EventRun({ head: '{"index":', quoted: ['1', '2', '3'], tail: '}' }, () => elements);
  const sse = fakeCall();
  sse.raw.accept();
  await writeSseData(sse.request, sse.reply, [{ index: 0 }, run()]);
  assert.deepEqual(sse.raw.frames, [[0, 1, 2, 3].map((index) => `data: {"index":${index}}\n\n`).join('')], 'one write');
  const arrays: string[] = [];
  for (const items of [
    [{ index: 0 }, run(), { index: 4 }],
    [run(), { index: 4 }],
  ]) {
    const { raw, reply, request } = fakeCall();
    raw.accept();
    await writeJsonArray(request, reply, items);
    arrays.push(raw.frames.join(''));
  }
  assert.deepEqual(
    arrays.map((text) => JSON.parse(text)),
    [
      [0, 1, 2, 3, 4],
      [1, 2, 3, 4],
    ].map((list) => list.map((index) => ({ index }))),
  );
  assert.equal(arrays[0], '[{"index":0},\r\n{"index":1},\r\n{"index":2},\r\n{"index":3},\r\n{"index":4}]');
  // Under a fault, a run's elements are written one by one: the array's first without the separator.
  const faulted = fakeCall();
  faulted.raw.accept();
  (faulted.request as FastifyRequest & { gatehouseFault?: string }).gatehouseFault = 'disconnect';
  await writeJsonArray(faulted.request, faulted.reply, [run(), { index: 4 }]);
  assert.deepEqual(faulted.raw.frames, ['[', '{"index":1}', ',\r\n{"index":2}', ',\r\n{"index":3}']);
});

/** A synchronous producer of `before` events, a Hold on `wait`, then `after` events; records what was pulled and whether it was closed. */
function atHand(before: number, wait: Promise<void>, after: number, failAt?: number) {
  const state = { pulled: 0, closed: false };
  function* events(): Generator<NamedEvent | Hold> {
    try {
      for (let index = 0; index < before + after; index++) {
        if (index === before) yield new Hold(wait);
        if (index === failAt) throw new GatewayError('upstream_failed', 'the answer broke');
        state.pulled++;
        yield { data: { index } };
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, events: events() };
}

function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const wait = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { wait, open, fail };
}

test('events at hand: nothing made after a Hold is written before it resolves; then the whole stream leaves in one write', async () => {
  const { raw, reply, request } = fakeCall();
  raw.accept();
  const { wait, open } = gate();
  const { state, events } = atHand(3, wait, 2);
  const done = writeSse(request, reply, events);
  await ticks();
  assert.deepEqual(raw.frames, [], 'the Hold is waited for before anything after it goes out');
  assert.equal(state.pulled, 3, 'nothing after the Hold was made yet');
  open();
  await done;
  assert.deepEqual(raw.frames, [[0, 1, 2, 3, 4].map((index) => `data: {"index":${index}}\n\n`).join('')]);
  assert.ok(raw.ended);
  assert.ok(state.closed);
});

test('events at hand: a long stream goes out in writes of about AT_HAND_WRITE_CHARS, each waiting for the reader', async () => {
  const { raw, reply, request } = fakeCall();
  const count = Math.ceil((3 * AT_HAND_WRITE_CHARS) / 'data: {"index":0000}\n\n'.length);
  const { state, events } = atHand(count, Promise.resolve(), 0);
  const done = writeSse(request, reply, events);
  await ticks();
  assert.equal(raw.frames.length, 1, 'one write, then the writer waits for drain');
  assert.ok(raw.frames[0]!.length >= AT_HAND_WRITE_CHARS && raw.frames[0]!.length < AT_HAND_WRITE_CHARS + 100);
  assert.ok(state.pulled < count / 2, `pulled ${state.pulled} of ${count} while the client read nothing`);
  raw.accept();
  raw.drain();
  await done;
  const text = raw.frames.join('');
  assert.equal(text.split('\n\n').length - 1, count);
  assert.ok(raw.frames.length >= 3 && raw.frames.length <= 5, `${raw.frames.length} writes`);
});

test('events at hand: a client that leaves during a Hold stops the stream and closes its producer', async () => {
  const { raw, reply, request } = fakeCall();
  raw.accept();
  const { wait, open } = gate();
  const { state, events } = atHand(2, wait, 5);
  const done = writeSse(request, reply, events);
  await ticks();
  raw.emit('close');
  open();
  await done;
  assert.ok(state.closed, "the producer's cleanup ran");
  assert.equal(state.pulled, 2);
  assert.equal(raw.ended, false);
});

test('events at hand: a failing Hold or producer ends the stream with what was made, then the error frame', async () => {
  for (const failure of ['hold', 'producer'] as const) {
    const { raw, reply, request } = fakeCall();
    raw.accept();
    const { wait, open, fail } = gate();
    const { state, events } = atHand(2, wait, 3, failure === 'producer' ? 3 : undefined);
    const reported: unknown[] = [];
    const done = writeSse(request, reply, events, {
      errorEvent: (error) => ({ name: 'error', data: { kind: error.kind } }),
      report: (error) => reported.push(error),
    });
    if (failure === 'hold') fail(new Error('the commit broke'));
    else open();
    await done;
    const made = failure === 'hold' ? [0, 1] : [0, 1, 2];
    const error = failure === 'hold' ? 'internal' : 'upstream_failed';
    assert.deepEqual(raw.frames, [
      `${made.map((index) => `data: {"index":${index}}\n\n`).join('')}event: error\ndata: {"kind":"${error}"}\n\n`,
    ]);
    assert.ok(raw.ended);
    assert.ok(state.closed, `${failure}: the producer's cleanup ran`);
    assert.equal(reported.length, failure === 'hold' ? 1 : 0);
  }
});

test("events at hand: a Hold's `sent` is told just before the frames after it go out, not when they are made", async () => {
  const { raw, reply, request } = fakeCall();
  raw.accept();
  const { wait, open } = gate();
  const told: number[] = [];
  const events: (NamedEvent | Hold)[] = [new Hold(undefined, () => told.push(raw.frames.length)), { data: 1 }, new Hold(wait), { data: 2 }];
  const done = writeSse(request, reply, events);
  await ticks();
  assert.deepEqual(told, [], 'made, not yet sent');
  open();
  await done;
  assert.deepEqual(told, [0], 'told once, right before the write');
  assert.deepEqual(raw.frames, ['data: 1\n\ndata: 2\n\n']);
});

test('data-only events (Gemini with alt=sse): each item is one `data:` frame, at hand after its Holds or one by one, a failure ends with the error frame', async () => {
  const atHandCall = fakeCall();
  atHandCall.raw.accept();
  const { wait, open } = gate();
  const written = writeSseData(atHandCall.request, atHandCall.reply, [{ a: 1 }, new Hold(wait), { name: 'x' }]);
  await ticks();
  assert.deepEqual(atHandCall.raw.frames, [], 'nothing made after the Hold goes out before it resolves');
  open();
  await written;
  assert.deepEqual(atHandCall.raw.frames, ['data: {"a":1}\n\ndata: {"name":"x"}\n\n'], 'one write, the items as they are');

  const eachCall = fakeCall();
  eachCall.raw.accept();
  const { events } = producer(10, 2);
  await writeSseData(eachCall.request, eachCall.reply, events, { errorEvent: (error) => ({ data: { error: error.kind } }) });
  assert.deepEqual(eachCall.raw.frames, [
    'data: {"data":{"index":0}}\n\n',
    'data: {"data":{"index":1}}\n\n',
    'data: {"error":"internal"}\n\n',
  ]);
  assert.ok(eachCall.raw.ended);
});

test(
  'a real socket: a long stream of small frames to a client reading in the same process reaches its end',
  { timeout: 60_000 },
  async () => {
    // Many frames in one tick fill the answer's own buffer (Node 24.22 holds a tick's writes there), whose bytes then fit in
    // the socket's: Node sends no 'drain' then, and a writer waiting for one hung at about 4 MB of a 16 MB fixture's stream.
    const frame = `data: ${JSON.stringify({ text: 'é€ab'.repeat(60) })}\n\n`;
    const count = 20_000;
    const server = createServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < count; index++) await writeFrame(response, frame);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      let bytes = 0;
      for await (const chunk of answer.body!) bytes += chunk.length;
      assert.equal(bytes, count * Buffer.byteLength(frame));
    } finally {
      server.close();
    }
  },
);

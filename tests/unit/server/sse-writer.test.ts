// Unit tests of the SSE writer with a fake response: a slow reader holds the producer back (backpressure), a client that leaves stops it, a failing producer ends the stream with an error frame.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NamedEvent } from '../../../electron/gateway/protocols/named-event.ts';
import { writeSse } from '../../../electron/gateway/server/sse.ts';

/** A response whose socket buffer is full (`write` returns false) until `accept()`; each 'drain' lets the writer go on. */
class FakeResponse extends EventEmitter {
  frames: string[] = [];
  ended = false;
  private full = true;
  writeHead() {}
  flushHeaders() {}
  write(chunk: string, callback?: () => void) {
    if (chunk !== '') this.frames.push(chunk);
    callback?.();
    return !this.full;
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
  raw.emit('drain');
  await ticks();
  assert.equal(raw.frames.length, 2);
  assert.ok(state.pulled <= 3);
  raw.accept();
  raw.emit('drain');
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
  assert.deepEqual(raw.frames, ['data: 1\n\n', 'event: x\ndata: 2\n\n']);
  assert.ok(raw.ended);
});

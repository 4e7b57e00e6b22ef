// Unit tests of the safe event emitter and guarded handlers: a throwing listener is reported, never thrown; an `error` nobody listens to is dropped.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import { guarded, makeListenersSafe } from '../../electron/gateway/safe-events.ts';

describe('makeListenersSafe', () => {
  test('a throwing listener is reported as error; the others still run; emit does not throw', () => {
    const events = makeListenersSafe(new EventEmitter<{ tick: [number]; error: [unknown] }>());
    const seen: number[] = [];
    const reported: unknown[] = [];
    events.on('tick', () => {
      throw new Error('listener failed');
    });
    events.on('tick', (value) => seen.push(value));
    events.once('tick', (value) => seen.push(value * 10));
    events.on('error', (error) => reported.push(error));
    assert.equal(events.emit('tick', 1), true);
    events.emit('tick', 2);
    assert.deepEqual(seen, [1, 10, 2], 'a once listener runs once');
    assert.deepEqual(
      reported.map((error) => (error as Error).message),
      ['listener failed', 'listener failed'],
    );
  });

  test('an error with no listener, or a failing error listener, is dropped rather than thrown', async () => {
    const events = makeListenersSafe(new EventEmitter<{ tick: []; error: [unknown] }>());
    assert.equal(events.emit('error', new Error('nobody listens')), false);
    events.on('tick', () => {
      throw new Error('and nobody hears this one');
    });
    events.emit('tick');
    events.on('error', () => {
      throw new Error('the error listener fails too');
    });
    assert.equal(events.emit('tick'), true);
  });

  test('a listener whose promise rejects is reported too', async () => {
    const events = makeListenersSafe(new EventEmitter<{ tick: []; error: [unknown] }>());
    const reported = new Promise<unknown>((resolve) => events.on('error', resolve));
    events.on('tick', async () => {
      throw new Error('async listener failed');
    });
    events.emit('tick');
    assert.equal(((await reported) as Error).message, 'async listener failed');
  });
});

describe('guarded', () => {
  test('reports what the handler throws, and survives a failing report', () => {
    const reported: unknown[] = [];
    const handler = guarded(
      (error) => reported.push(error),
      (value: number) => {
        if (value > 1) throw new Error(`too big: ${value}`);
      },
    );
    handler(1);
    handler(2);
    assert.deepEqual(
      reported.map((error) => (error as Error).message),
      ['too big: 2'],
    );
    const both = guarded(
      () => {
        throw new Error('report failed');
      },
      () => {
        throw new Error('handler failed');
      },
    );
    assert.doesNotThrow(() => both());
  });
});

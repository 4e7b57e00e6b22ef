// Keeps listeners and callbacks from throwing out of the process: each failure is reported as an `error` event, or dropped when no one listens.
import type { EventEmitter } from 'node:events';

/** Where a caught failure goes; never throws. */
export type ReportError = (error: unknown) => void;

/**
 * Replaces `emitter.emit` so that each listener runs on its own: one that throws (or rejects) is reported
 * to the `error` listeners and the others still run; an `error` with no listener is dropped instead of
 * thrown, and a failing `error` listener is dropped too. Returns the same emitter.
 */
export function makeListenersSafe<Emitter extends EventEmitter>(emitter: Emitter): Emitter {
  const report = (error: unknown) => void emitter.emit('error', error);
  emitter.emit = function emit(name: string | symbol, ...args: unknown[]): boolean {
    const listeners = emitter.rawListeners(name) as ((...values: unknown[]) => unknown)[];
    for (const listener of listeners) {
      try {
        const result = Reflect.apply(listener, emitter, args);
        if (result instanceof Promise) result.catch(name === 'error' ? () => undefined : report);
      } catch (error) {
        if (name !== 'error') report(error);
      }
    }
    return listeners.length > 0;
  } as Emitter['emit'];
  return emitter;
}

/** Wraps an event handler (socket message or close, timer, stream event) so a failure is reported, never thrown. */
export function guarded<Args extends unknown[]>(report: ReportError, handler: (...args: Args) => void): (...args: Args) => void {
  return (...args) => {
    try {
      handler(...args);
    } catch (error) {
      try {
        report(error);
      } catch {
        // The report itself failed: nothing more can be done without risking the process.
      }
    }
  };
}

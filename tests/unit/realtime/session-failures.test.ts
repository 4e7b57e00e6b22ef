// Unit tests of a realtime session's failure paths: a response whose charge fails is reported and answered with an error event, never left as an unhandled rejection.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimulatedChat } from '../../../electron/gateway/providers/simulate/chat.ts';
import type { CallContext } from '../../../electron/gateway/providers/types.ts';
import { RealtimeSession } from '../../../electron/gateway/realtime/session.ts';

describe('realtime session failures', () => {
  test('a charge that throws when a response finishes is reported and sent as a server_error event', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const sent: Array<{ type: string; error?: { type: string } }> = [];
      const reported: unknown[] = [];
      const session = new RealtimeSession({
        model: 'sim-realtime',
        beta: false,
        send: (text) => sent.push(JSON.parse(text)),
        authorize: () => undefined,
        charge: () => {
          throw new Error('database is closed');
        },
        reserve: () => ({ release: () => undefined }),
        models: {
          chat: new SimulatedChat(),
          realtime: {
            hear: async () => '',
            speak: async () => new Int16Array(0),
            speakable: (text) => text,
            checkTools: async () => undefined,
          },
          call: { headers: {}, signal: new AbortController().signal } as unknown as CallContext,
        },
        paceMs: 0,
        now: Date.now(),
        report: (error) => reported.push(error),
      });
      session.receive(JSON.stringify({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } }));
      session.receive(JSON.stringify({ type: 'response.create' }));
      for (let tries = 0; tries < 500 && reported.length === 0; tries += 1) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(
        reported.map((error) => (error as Error).message),
        ['database is closed'],
      );
      assert.equal(sent.at(-1)?.type, 'error');
      assert.equal(sent.at(-1)?.error?.type, 'server_error');
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

// Test helper: realtime clients (raw `ws` or the openai SDK) whose server events are collected and awaited by type or predicate.
import type { OpenAIRealtimeWS } from 'openai/realtime/ws';
import WebSocket, { type ClientOptions } from 'ws';

export type ServerEvent = { type: string; event_id: string; [key: string]: any };
type Match = string | ((event: ServerEvent) => boolean);

/** Collected events and a way to wait for the next matching one. */
export interface EventLog {
  events: ServerEvent[];
  /** The first matching event at or after index `from` (default: after the last one waited for); rejects if the socket closes first. */
  next(match: Match, from?: number): Promise<ServerEvent>;
  /** Types of all events so far. */
  types(): string[];
}

/** Collects events pushed to `onEvent`; `closed` rejects pending waits. */
export function eventLog(): EventLog & { push(event: ServerEvent): void; closed(reason: string): void } {
  const events: ServerEvent[] = [];
  let cursor = 0;
  let closedReason: string | undefined;
  const waiters = new Set<{
    test: (event: ServerEvent, index: number) => boolean;
    resolve: (index: number) => void;
    reject: (error: Error) => void;
  }>();
  const predicate = (match: Match) => (typeof match === 'string' ? (event: ServerEvent) => event.type === match : match);
  return {
    events,
    types: () => events.map((event) => event.type),
    push(event) {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.test(event, events.length - 1)) {
          waiters.delete(waiter);
          waiter.resolve(events.length - 1);
        }
      }
    },
    closed(reason) {
      closedReason = reason;
      for (const waiter of waiters)
        waiter.reject(new Error(`socket closed (${reason}) while waiting; events: ${events.map((e) => e.type).join(', ')}`));
      waiters.clear();
    },
    async next(match, from = cursor) {
      const test = predicate(match);
      let index = events.findIndex((event, i) => i >= from && test(event));
      if (index < 0) {
        if (closedReason !== undefined) throw new Error(`socket closed (${closedReason}); events: ${events.map((e) => e.type).join(', ')}`);
        index = await new Promise<number>((resolve, reject) =>
          waiters.add({ test: (event, i) => i >= from && test(event), resolve, reject }),
        );
      }
      cursor = index + 1;
      return events[index]!;
    },
  };
}

/** A raw realtime WebSocket client. */
export interface RawClient extends EventLog {
  socket: WebSocket;
  send(event: Record<string, unknown> | string): void;
  /** Resolves with the close code and reason once the socket closed. */
  closing: Promise<{ code: number; reason: string }>;
}

/** Opens `url` with `ws` and resolves once open (the first server event may still be on its way). */
export async function openRaw(url: string, options: ClientOptions & { protocols?: string[] } = {}): Promise<RawClient> {
  const { protocols, ...rest } = options;
  const socket = new WebSocket(url, protocols ?? [], rest);
  const log = eventLog();
  // Binary frames (only ever relayed, never sent by the gateway itself) are left to the test's own listener.
  socket.on('message', (data: Buffer, binary: boolean) => {
    if (!binary) log.push(JSON.parse(data.toString('utf8')) as ServerEvent);
  });
  const closing = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => {
      log.closed(`code ${code}`);
      resolve({ code, reason: reason.toString() });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { ...log, socket, closing, send: (event) => socket.send(typeof event === 'string' ? event : JSON.stringify(event)) };
}

/** Collects an SDK client's events. */
export function sdkLog(rt: OpenAIRealtimeWS): EventLog & { errors: Error[] } {
  const log = eventLog();
  const errors: Error[] = [];
  rt.on('event', (event) => log.push(event as unknown as ServerEvent));
  rt.on('error', (error) => errors.push(error));
  rt.socket.on('close', (code) => log.closed(`code ${code}`));
  return { ...log, errors };
}

/** Asserts that `expected` types occur in this order (other events may come between them). */
export function inOrder(types: string[], expected: string[]): string | undefined {
  let at = -1;
  for (const type of expected) {
    const found = types.indexOf(type, at + 1);
    if (found < 0) return `${type} missing after position ${at} in: ${types.join(', ')}`;
    at = found;
  }
  return undefined;
}

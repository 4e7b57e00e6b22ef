// Test helper: an upstream a test scripts byte by byte (node:http on port 0), to play a broken or hostile provider behind a relay channel; it records every request it receives.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { after } from 'node:test';
import type { AddressInfo, Socket } from 'node:net';
import type { ChannelKind } from '../../electron/gateway/providers/types.ts';
import { memoryChannels, type TestChannel } from './channels.ts';
import { startGateway, type TestGateway } from './gateway.ts';

/** One request the upstream received, body read whole. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** What the test's handler gets: the request (body already read) and the raw response to write anything to. */
export type HostileHandler = (request: ReceivedRequest, response: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface HostileUpstream {
  url: string;
  /** Every request received so far, oldest first. */
  requests: ReceivedRequest[];
  /** Replaces the handler for the next requests. */
  handle(handler: HostileHandler): void;
  /** Closes the server and every connection still open (a handler that never ends its answer is cut). */
  close(): Promise<void>;
}

/**
 * A handler answering OpenAI chat: the model `gpt-broken` is refused with a 500, any other gets a one-choice answer
 * ("relayed") with `headers` beside its content type.
 */
export function chatAnswers(headers: Record<string, string> = {}): HostileHandler {
  return (received, response) => {
    const { model } = JSON.parse(received.body.toString('utf8')) as { model: string };
    if (model === 'gpt-broken')
      return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
    const choices = [{ index: 0, message: { role: 'assistant', content: 'relayed' }, finish_reason: 'stop' }];
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model, choices }));
  };
}

/** Starts an upstream on 127.0.0.1, port 0, answering each request with `handler` (default: 404). */
export async function hostileUpstream(handler?: HostileHandler): Promise<HostileUpstream> {
  let current: HostileHandler = handler ?? ((_, response) => void response.writeHead(404).end());
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => parts.push(chunk));
    incoming.on('end', () => {
      const received = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(parts),
      };
      requests.push(received);
      Promise.resolve(current(received, response, incoming)).catch(() => response.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    handle(next) {
      current = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A gateway whose one channel (kind `kind`, key `key`, every model) points at `upstream`; extra channel fields override. */
export async function gatewayBefore(
  upstream: HostileUpstream,
  kind: ChannelKind,
  key: string | null = 'sk-hostile-test-key-0123456789abcdef',
  channel: Partial<TestChannel> = {},
): Promise<TestGateway> {
  return startGateway({ channels: memoryChannels([{ name: 'hostile', kind, baseUrl: upstream.url, key, models: ['*'], ...channel }]) });
}

/** A list of the upstreams and gateways a test file starts: each gateway, then its upstream, is stopped once the file's tests ran. */
export function stoppedAfterAll(): { up: HostileUpstream; gw: TestGateway }[] {
  const started: { up: HostileUpstream; gw: TestGateway }[] = [];
  after(async () => {
    for (const { up, gw } of started.splice(0)) {
      await gw.stop();
      await up.close();
    }
  });
  return started;
}

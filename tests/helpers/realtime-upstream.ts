// Test helper: a stand-in OpenAI realtime upstream (a WebSocket server on 127.0.0.1 that greets each session with `session.created` for model `rt-up`), and a gateway whose one channel relays `rt-up` to it.
import { createServer } from 'node:http';
import { after, before } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { memoryChannels } from './channels.ts';
import { startGateway, type TestGateway } from './gateway.ts';
import { openRaw, type RawClient } from './realtime.ts';

export interface RelayedRealtime {
  readonly gw: TestGateway;
  /** The upstream's server: its `clients` are the sessions open upstream. */
  readonly wss: WebSocketServer;
}

/** A relayed `rt-up` session of the token `secret` on `gw`, once the upstream's `session.created` came through. */
export async function openRelayedSession(gw: TestGateway, secret: string): Promise<RawClient> {
  const rt = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=rt-up`, { headers: { authorization: `Bearer ${secret}` } });
  await rt.next('session.created');
  return rt;
}

/** Starts the upstream and the gateway; `session` handles each upstream session after its greeting. `stop` ends both. */
export async function startRelayedRealtime(session: (ws: WebSocket) => void): Promise<RelayedRealtime & { stop(): Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer();
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'session.created', event_id: 'e0', session: { model: 'rt-up' } }));
      session(ws);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const channel = { name: 'rt', kind: 'openai' as const, baseUrl: `http://127.0.0.1:${port}/v1`, key: 'sk-rt-upstream', models: ['rt-up'] };
  const gw = await startGateway({ channels: memoryChannels([channel]) });
  return {
    gw,
    wss,
    async stop() {
      await gw.stop();
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `startRelayedRealtime` before the tests of the file (or describe) it is called in, stopped after them. */
export function relayedRealtime(session: (ws: WebSocket) => void): RelayedRealtime {
  let started: (RelayedRealtime & { stop(): Promise<void> }) | undefined;
  before(async () => {
    started = await startRelayedRealtime(session);
  });
  after(() => started?.stop());
  return {
    get gw() {
      return started!.gw;
    },
    get wss() {
      return started!.wss;
    },
  };
}

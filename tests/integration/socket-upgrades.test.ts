// Integration tests of WebSocket upgrades outside the socket routes: refused over HTTP then closed, or opened and closed at once on a route with no socket, on the HTTP and TLS listeners.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { PATIENCE_MS } from '../helpers/eventually.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

/** What a raw client saw of one upgrade request: the answer's status and headers, the bytes after the head, and whether the gateway closed the connection. */
interface Exchange {
  status: number;
  headers: Map<string, string>;
  rest: Buffer;
  closedByGateway: boolean;
}

/** A WebSocket close frame from the server with no status code (a plain `close()`): FIN + opcode 8, length 0. */
const BARE_CLOSE_FRAME = Buffer.from([0x88, 0x00]);
/** The same from a client: masked, as every client frame is (mask key 0). */
const MASKED_CLOSE_FRAME = Buffer.from([0x88, 0x80, 0, 0, 0, 0]);

describe('WebSocket upgrades to routes that serve no socket', () => {
  let gw: TestGateway;
  let ca: string;
  let tlsPort: number;
  const port = () => Number(new URL(gw.url).port);
  before(async () => {
    gw = await startGateway({ tlsPort: 0, sim3dMs: 0 });
    tlsPort = Number(new URL(gw.gateway.context.runtime.tlsUrl!).port);
    ca = readFileSync(`${gw.dataDir}/tls/ca.pem`, 'utf8');
  });
  after(() => gw.stop());

  /**
   * Sends an upgrade request as a WebSocket client would and reads until the gateway closes the connection (then
   * `closedByGateway`), or until `restBytes` bytes came after the answer's head, or at the latest for PATIENCE_MS.
   */
  function upgrade(
    method: string,
    path: string,
    headers: Record<string, string>,
    secure = false,
    restBytes = Infinity,
    behind = Buffer.alloc(0),
  ): Promise<Exchange> {
    const host = secure ? `localhost:${tlsPort}` : `127.0.0.1:${port()}`;
    const lines = [
      `${method} ${path} HTTP/1.1`,
      `Host: ${host}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    return new Promise((resolve, reject) => {
      const socket = secure
        ? tls.connect({ host: '127.0.0.1', port: tlsPort, ca, servername: 'localhost' })
        : net.connect(port(), '127.0.0.1');
      const chunks: Buffer[] = [];
      let closedByGateway = false;
      const giveUp = setTimeout(() => socket.destroy(), PATIENCE_MS);
      socket.on(secure ? 'secureConnect' : 'connect', () =>
        socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), behind])),
      );
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const data = Buffer.concat(chunks);
        const end = data.indexOf('\r\n\r\n');
        if (end >= 0 && data.length - end - 4 >= restBytes) socket.destroy();
      });
      socket.on('end', () => (closedByGateway = true));
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(giveUp);
        const data = Buffer.concat(chunks);
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return reject(new Error(`no answer head: ${JSON.stringify(data.toString('latin1'))}`));
        const [statusLine = '', ...headerLines] = data.subarray(0, end).toString('latin1').split('\r\n');
        resolve({
          status: Number(statusLine.split(' ')[1]),
          headers: new Map(
            headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
          ),
          rest: data.subarray(end + 4),
          closedByGateway,
        });
      });
    });
  }

  for (const secure of [false, true]) {
    const scheme = secure ? 'wss://' : 'ws://';

    test(`${scheme} an upgrade refused over HTTP (unknown path, no token, no admin token) gets its error answer, then the gateway closes the connection`, async () => {
      const unknown = await upgrade('GET', '/v1/nothing-here', { authorization: `Bearer ${gw.token}` }, secure);
      assert.equal(unknown.status, 404);
      assert.equal(JSON.parse(unknown.rest.toString('utf8')).error.code, 'not_found');
      assert.ok(unknown.closedByGateway, 'the connection of a refused upgrade is closed, not left open');
      const anonymous = await upgrade('GET', '/v1/models', {}, secure);
      assert.equal(anonymous.status, 401);
      assert.ok(anonymous.closedByGateway);
      const admin = await upgrade('GET', '/admin/ws', {}, secure);
      assert.equal(admin.status, 401);
      assert.equal(admin.headers.get('cache-control'), 'no-store', 'the admin routes’ own hooks still answer the admin socket');
      assert.ok(admin.closedByGateway);
    });

    test(`${scheme} an upgrade to a route with no socket (a GET API route, /healthz) opens with its request id and is closed at once, with no message`, async () => {
      for (const path of ['/v1/models', '/healthz']) {
        const opened = await upgrade(
          'GET',
          path,
          { authorization: `Bearer ${gw.token}`, 'x-request-id': 'rid-upgrade-elsewhere' },
          secure,
          BARE_CLOSE_FRAME.length,
        );
        assert.equal(opened.status, 101, path);
        assert.equal(opened.headers.get('x-request-id'), 'rid-upgrade-elsewhere', path);
        assert.deepEqual(opened.rest, BARE_CLOSE_FRAME, `${path}: a close frame and nothing else`);
      }
      // A client that sent its own close frame right behind the request (before the 101): the socket reads it, so the
      // close handshake completes and the gateway ends the connection.
      const hasty = await upgrade('GET', '/v1/models', { authorization: `Bearer ${gw.token}` }, secure, Infinity, MASKED_CLOSE_FRAME);
      assert.equal(hasty.status, 101);
      assert.deepEqual(hasty.rest, BARE_CLOSE_FRAME);
      assert.ok(hasty.closedByGateway);
    });
  }

  test('HEAD cannot upgrade: a socket route answers 404 and a plain route 405, each closing the connection; a plain GET of a socket route is a 404', async () => {
    const socketRoute = await upgrade('HEAD', '/v1/realtime', { authorization: `Bearer ${gw.token}` });
    assert.equal(socketRoute.status, 404);
    assert.ok(socketRoute.closedByGateway);
    const plainRoute = await upgrade('HEAD', '/v1/models', { authorization: `Bearer ${gw.token}` });
    assert.equal(plainRoute.status, 405);
    assert.ok(plainRoute.closedByGateway);
    const plainGet = await fetch(`${gw.url}/v1/realtime`, { headers: { authorization: `Bearer ${gw.token}` } });
    assert.equal(plainGet.status, 404);
  });
});

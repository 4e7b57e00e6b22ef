// Integration test: an error a listening server emits after start (e.g. a failed accept) is reported through the gateway's events, never thrown out of the process.
import assert from 'node:assert/strict';
import type { Server } from 'node:net';
import { test } from 'node:test';
import { startGateway } from '../helpers/gateway.ts';

/** The live net servers of this process listening on `port` (found among the process's active handles). */
function serversOn(port: number): Server[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((handle): handle is Server => {
    const address = (handle as Server)?.address?.();
    return typeof address === 'object' && address !== null && address.port === port;
  });
}

test('an error emitted by the HTTP or TLS listener after start is reported as an error event, and both keep serving', async () => {
  const gw = await startGateway({ tlsPort: 0 });
  try {
    const reported: unknown[] = [];
    gw.gateway.events.on('error', (error) => reported.push(error));
    const tlsUrl = gw.gateway.context.runtime.tlsUrl!;
    const servers = [...serversOn(Number(new URL(gw.url).port)), ...serversOn(Number(new URL(tlsUrl).port))];
    assert.equal(servers.length, 2, 'the HTTP and the TLS listener');
    for (const server of servers) server.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' }));
    assert.equal(reported.length, 2);
    assert.equal((await fetch(`${gw.url}/healthz`)).status, 200);
  } finally {
    await gw.stop();
  }
});

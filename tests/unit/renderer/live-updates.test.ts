// Unit tests of the admin socket client and its wiring into the stores: token subprotocol, events applied, reconnect and reload.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ADMIN_WS_PROTOCOL, ADMIN_WS_TOKEN_PREFIX, type AdminEvent } from '../../../shared/admin-events.ts';
import type { Asset } from '../../../shared/portrait.ts';
import { connectAdminSocket, type SocketLike } from '../../../renderer/src/api/admin-socket.ts';
import { createConsoleStores, startLiveUpdates } from '../../../renderer/src/stores/index.ts';
import { memoryStorage } from '../../../renderer/src/stores/storage.ts';

/** Sockets the test opens, closes and feeds by hand. */
function socketFactory() {
  const opened: Array<{ url: string; protocols: string[]; socket: SocketLike; closed: boolean }> = [];
  const open = (url: string, protocols: string[]) => {
    const record = { url, protocols, closed: false, socket: undefined as unknown as SocketLike };
    record.socket = { onopen: null, onclose: null, onmessage: null, close: () => void (record.closed = true) };
    opened.push(record);
    return record.socket;
  };
  const send = (index: number, event: AdminEvent) => opened[index]!.socket.onmessage?.({ data: JSON.stringify(event) });
  return { opened, open, send };
}

describe('admin socket client', () => {
  test('connects with the admin and token subprotocols, retries with backoff, and stops for good', () => {
    const sockets = socketFactory();
    const states: string[] = [];
    const timers: Array<{ run: () => void; ms: number }> = [];
    const events: AdminEvent[] = [];
    const stop = connectAdminSocket({
      baseUrl: 'http://127.0.0.1:8790',
      adminToken: 'tok',
      open: sockets.open,
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
      schedule: (run, ms) => timers.push({ run, ms }),
      cancel: () => {},
    });
    assert.equal(sockets.opened[0]!.url, 'ws://127.0.0.1:8790/admin/ws');
    assert.deepEqual(sockets.opened[0]!.protocols, [ADMIN_WS_PROTOCOL, `${ADMIN_WS_TOKEN_PREFIX}tok`]);
    sockets.opened[0]!.socket.onopen?.({});
    sockets.send(0, { type: 'hello', nextScanAt: 5 });
    sockets.opened[0]!.socket.onmessage?.({ data: '{"type":"unknown"}' });
    assert.deepEqual(events, [{ type: 'hello', nextScanAt: 5 }], 'unknown messages are ignored');

    sockets.opened[0]!.socket.onclose?.({});
    assert.equal(timers[0]!.ms, 500);
    timers[0]!.run();
    assert.equal(sockets.opened.length, 2);
    sockets.opened[1]!.socket.onclose?.({});
    assert.equal(timers[1]!.ms, 1000, 'the delay doubles');
    stop();
    assert.equal(sockets.opened[1]!.closed, true);
    assert.deepEqual(states, ['connecting', 'open', 'retrying', 'retrying', 'retrying', 'closed']);
  });

  test('a connection refused for its admin token stops in state refused; a gateway that is only down is retried', async () => {
    const sockets = socketFactory();
    const states: string[] = [];
    const timers: Array<{ run: () => void; ms: number }> = [];
    let refused = false;
    connectAdminSocket({
      baseUrl: 'http://127.0.0.1:8790',
      adminToken: 'old',
      open: sockets.open,
      onEvent: () => {},
      onState: (state) => states.push(state),
      schedule: (run, ms) => timers.push({ run, ms }),
      cancel: () => {},
      isRefused: async () => refused,
    });
    sockets.opened[0]!.socket.onclose?.({});
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(timers.length, 1, 'down, not refused: retried');
    refused = true;
    timers[0]!.run();
    sockets.opened[1]!.socket.onclose?.({});
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(timers.length, 1, 'refused: no further retry');
    assert.deepEqual(states, ['connecting', 'retrying', 'retrying', 'refused']);
  });
});

describe('live updates into the stores', () => {
  test('asset, scan and journal events reach their stores; a reconnect reloads', async () => {
    const requested: string[] = [];
    const fetchImpl = (async (url: string) => {
      requested.push(new URL(url, 'http://x').pathname);
      if (url.includes('/status')) return Response.json({ accounts: ['local'], nextScanAt: 1 });
      return Response.json({ page: 1, page_size: 10, total: 0, items: [] });
    }) as unknown as typeof fetch;
    const stores = createConsoleStores({
      connection: { host: 'browser', apiBase: '', socketBase: 'http://127.0.0.1:1', gatewayUrl: 'http://127.0.0.1:1', adminToken: 't' },
      bridge: null,
      session: memoryStorage(),
      local: memoryStorage(),
      fetch: fetchImpl,
    });
    await stores.status.getState().load();
    const sockets = socketFactory();
    startLiveUpdates(stores, sockets.open);
    sockets.opened[0]!.socket.onopen?.({});
    assert.equal(stores.connection.getState().socket, 'open');

    const asset = { asset_id: 'ast_1', status: 'Active', updated_at: '2026-01-01T00:00:00.000+00:00' } as Asset;
    stores.assets.setState({
      assets: { page: 1, page_size: 10, total: 1, items: [{ ...asset, status: 'Processing', updated_at: '2025' } as Asset] },
    });
    sockets.send(0, { type: 'asset.changed', account: 'local', asset });
    assert.equal(stores.assets.getState().assets?.items[0]?.status, 'Active');
    sockets.send(0, { type: 'scan.finished', report: { startedAt: 1, finishedAt: 2, checked: 1, errors: 0 }, nextScanAt: 99 });
    assert.equal(stores.status.getState().status?.nextScanAt, 99);
    await stores.journal.getState().load(1);
    const call = {
      id: 5,
      at: 1,
      method: 'GET',
      path: '/v1/models',
      protocol: 'openai',
      model: null,
      account: 'local',
      status: 200,
      durationMs: 1,
      stream: false,
      error: null,
    } as const;
    sockets.send(0, { type: 'journal.added', entry: call });
    assert.deepEqual(stores.journal.getState().page?.items, [call], 'a recorded call joins the open Logs table');
    requested.length = 0;
    sockets.send(0, { type: 'journal.added', entry: { ...call, id: 6, account: 'new-bot' } });
    assert.deepEqual(requested, ['/admin/api/status'], 'a call of an unknown account reloads the account list');

    requested.length = 0;
    sockets.opened[0]!.socket.onclose?.({});
    assert.equal(stores.connection.getState().socket, 'retrying');
    // The first retry is planned 500 ms after the close; a later timer runs after it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    sockets.opened[1]!.socket.onopen?.({});
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      requested.sort(),
      ['/admin/api/accounts/local/assets', '/admin/api/journal', '/admin/api/status'],
      'what changed while offline is reloaded',
    );
  });
});

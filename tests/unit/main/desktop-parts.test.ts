// Unit tests of the desktop host's parts: remembered window bounds, which URLs are the app's, IPC checks, the tray menu, port fallback and pause.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isOpenableExternalUrl, type DesktopConnection } from '../../../shared/ipc.ts';
import { DataDirError, type Gateway, type GatewayConfig } from '../../../electron/gateway/index.ts';
import { GatewayHost } from '../../../electron/main/gateway-host.ts';
import { registerIpc, type IpcHandlers } from '../../../electron/main/ipc.ts';
import { isAppUrl } from '../../../electron/main/navigation.ts';
import { trayMenuTemplate } from '../../../electron/main/tray.ts';
import { DEFAULT_BOUNDS, loadBounds, saveBounds } from '../../../electron/main/window-state.ts';

describe('window bounds', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

  test('are saved and read back; a position off every display is dropped', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bounds-'));
    try {
      const file = path.join(dir, 'sub', 'window-state.json');
      assert.deepEqual(loadBounds(file, screen), DEFAULT_BOUNDS, 'no file gives the defaults');
      saveBounds(file, { x: 100, y: 50, width: 1000, height: 700, maximized: true });
      assert.deepEqual(loadBounds(file, screen), { x: 100, y: 50, width: 1000, height: 700, maximized: true });
      saveBounds(file, { x: 5000, y: 50, width: 300, height: 200 });
      assert.deepEqual(loadBounds(file, screen), { width: 900, height: 600 }, 'off-screen position dropped, minimum size kept');
      writeFileSync(file, 'garbage');
      assert.deepEqual(loadBounds(file, screen), DEFAULT_BOUNDS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('URL checks', () => {
  test('only the console on an allowed origin is the app', () => {
    const origins = ['http://127.0.0.1:8790'];
    assert.equal(isAppUrl('http://127.0.0.1:8790/console/', origins), true);
    assert.equal(isAppUrl('http://127.0.0.1:8790/console/#/assets', origins), true);
    assert.equal(isAppUrl('http://127.0.0.1:8790/v1/models', origins), false, 'API URLs are not pages of the app');
    assert.equal(isAppUrl('http://127.0.0.1:8791/console/', origins), false);
    assert.equal(isAppUrl('http://user:pw@127.0.0.1:8790/console/', origins), false);
    assert.equal(isAppUrl('not a url', origins), false);
  });

  test('external links: https anywhere, http only to loopback, nothing else', () => {
    assert.equal(isOpenableExternalUrl('https://docs.example.com/a'), true);
    assert.equal(isOpenableExternalUrl('http://127.0.0.1:8790/console/'), true);
    assert.equal(isOpenableExternalUrl('http://example.com/'), false);
    assert.equal(isOpenableExternalUrl('file:///etc/passwd'), false);
    assert.equal(isOpenableExternalUrl('smb://host/share'), false);
    assert.equal(isOpenableExternalUrl('https://user:pw@example.com/'), false);
  });
});

describe('IPC registration', () => {
  test('every channel gets a handler that checks the sender and the arguments', async () => {
    const registered = new Map<string, (event: any, ...args: unknown[]) => Promise<unknown>>();
    const connection: DesktopConnection = { gatewayUrl: 'http://x', adminToken: 't', paused: false, problem: null };
    const handlers: IpcHandlers = {
      'gatehouse:get-connection': () => connection,
      'gatehouse:set-paused': (paused) => ({ ...connection, paused }),
      'gatehouse:restart-server': () => ({ ...connection, gatewayUrl: 'http://y' }),
      'gatehouse:open-external': () => true,
      'gatehouse:copy-text': () => {},
    };
    registerIpc(
      { handle: (channel, handler) => void registered.set(channel, handler as never) },
      handlers,
      (event) => (event as unknown as { trusted?: boolean }).trusted === true,
    );
    assert.equal(registered.size, 5);
    assert.equal(((await registered.get('gatehouse:restart-server')!({ trusted: true })) as DesktopConnection).gatewayUrl, 'http://y');
    await assert.rejects(registered.get('gatehouse:restart-server')!({ trusted: true }, 8790), /malformed/);
    assert.deepEqual(await registered.get('gatehouse:set-paused')!({ trusted: true }, true), { ...connection, paused: true });
    await assert.rejects(registered.get('gatehouse:get-connection')!({ trusted: false }), /not the Gatehouse window/);
    await assert.rejects(registered.get('gatehouse:get-connection')!({ trusted: true }, 'extra'), /malformed/);
    await assert.rejects(registered.get('gatehouse:copy-text')!({ trusted: true }, 'x'.repeat(100_001)), /malformed/);
  });
});

describe('tray menu', () => {
  const actions = { open() {}, openInBrowser() {}, copyBaseUrl() {}, setPaused() {}, quit() {} };
  test('shows the state and offers pause or resume', () => {
    const running = trayMenuTemplate({ gatewayUrl: 'http://127.0.0.1:8790', adminToken: 't', paused: false, problem: null }, actions);
    assert.equal(running[0]!.label, 'Gatehouse: running on http://127.0.0.1:8790');
    assert.ok(running.some((item) => item.label === 'Pause server' && item.enabled !== false));
    const paused = trayMenuTemplate({ gatewayUrl: null, adminToken: 't', paused: true, problem: null }, actions);
    assert.equal(paused[0]!.label, 'Gatehouse: server paused');
    assert.ok(paused.some((item) => item.label === 'Resume server'));
    assert.equal(paused.find((item) => item.label === 'Copy base URL')!.enabled, false);
  });
});

describe('gateway host', () => {
  /** A fake gateway factory: ports listed in `taken` refuse to bind. */
  function fakeFactory(taken: number[]) {
    const started: number[] = [];
    let stopped = 0;
    let next = 40000;
    const create = async (config: GatewayConfig): Promise<Gateway> =>
      ({
        async start() {
          if (taken.includes(config.port!)) throw Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
          const port = config.port === 0 ? next++ : config.port!;
          started.push(port);
          const tls =
            config.tlsPort === undefined || config.tlsPort === null ? {} : { tlsUrl: `https://127.0.0.1:${config.tlsPort || next++}` };
          return { url: `http://127.0.0.1:${port}`, consoleUrl: '', ...tls };
        },
        async stop() {
          stopped += 1;
        },
      }) as unknown as Gateway;
    return { create, started, stopped: () => stopped };
  }

  test('a taken port falls back to a free one; pause and resume keep that port and tell the listener', async () => {
    const factory = fakeFactory([8790]);
    const changes: DesktopConnection[] = [];
    const host = new GatewayHost({
      config: async () => ({ dataDir: '/tmp/x', secrets: {} as never, port: 8790 }),
      adminToken: 'admin',
      create: factory.create,
      onChange: (c) => changes.push(c),
    });
    const first = await host.start();
    assert.equal(first.gatewayUrl, 'http://127.0.0.1:40000');
    assert.equal(first.adminToken, 'admin');
    await host.pause();
    assert.deepEqual([host.connection().paused, host.connection().gatewayUrl, host.lastGatewayUrl], [true, null, 'http://127.0.0.1:40000']);
    await host.resume();
    assert.deepEqual(factory.started, [40000, 40000]);
    assert.equal(factory.stopped(), 2, 'the failed bind and the pause both closed their gateway');
    assert.deepEqual(
      changes.map((c) => c.paused),
      [false, true, false],
    );
  });

  test('restart reads the configuration again; one that cannot start gives way to the previous one, with the reason', async () => {
    const factory = fakeFactory([9999]);
    const ports = [8800, 8801, 9999];
    const host = new GatewayHost({
      config: async () => ({ dataDir: '/tmp/x', secrets: {} as never, port: ports.shift()! }),
      adminToken: 'admin',
      create: factory.create,
      onChange: () => undefined,
    });
    assert.equal((await host.start()).gatewayUrl, 'http://127.0.0.1:8800');
    const moved = await host.restart();
    assert.equal(moved.gatewayUrl, 'http://127.0.0.1:8801');
    assert.equal(moved.adminToken, 'admin', 'the admin token survives a restart');
    // 9999 is "taken": the host falls back to a free port rather than failing.
    assert.equal((await host.restart()).gatewayUrl, 'http://127.0.0.1:40000');

    const broken = new GatewayHost({
      config: (() => {
        let calls = 0;
        return async () => {
          calls += 1;
          if (calls > 1) throw new Error('The settings file /x/settings.json is not valid JSON');
          return { dataDir: '/tmp/x', secrets: {} as never, port: 8802 };
        };
      })(),
      adminToken: 'admin',
      create: fakeFactory([]).create,
      onChange: () => undefined,
    });
    await broken.start();
    await assert.rejects(
      broken.restart(),
      /could not start with the saved settings \(The settings file .* not valid JSON\); it runs with the previous ones/,
    );
    assert.equal(broken.connection().gatewayUrl, 'http://127.0.0.1:8802');
  });

  test('after falling back to free ports the gateway is told the ports that were meant, so no restart is asked for', async () => {
    const configs: GatewayConfig[] = [];
    const factory = fakeFactory([8790]);
    const host = new GatewayHost({
      config: async () => ({
        dataDir: '/tmp/x',
        secrets: {} as never,
        port: 8790,
        tlsPort: 8791,
        settings: { file: '/tmp/x/settings.json', defaultDataDir: '/tmp/x' },
      }),
      adminToken: 'admin',
      create: (config) => (configs.push(config), factory.create(config)),
      onChange: () => undefined,
    });
    await host.start();
    assert.deepEqual([configs[0]!.port, configs[0]!.settings?.intended], [8790, undefined]);
    assert.deepEqual([configs[1]!.port, configs[1]!.tlsPort, configs[1]!.settings?.intended], [0, 0, { port: 8790, tlsPort: 8791 }]);
    await host.pause();
    await host.resume();
    assert.deepEqual(
      [configs[2]!.port, configs[2]!.tlsPort, configs[2]!.settings?.intended],
      [40000, 40001, { port: 8790, tlsPort: 8791 }],
      'a resume keeps the free ports and the note',
    );
  });

  test('a start failure becomes a message that says what to do', () => {
    const changes: DesktopConnection[] = [];
    const host = new GatewayHost({
      config: async () => ({ dataDir: '/tmp/x', secrets: {} as never }),
      adminToken: 'admin',
      create: async () => ({}) as Gateway,
      onChange: (c) => changes.push(c),
    });
    host.fail(new Error('SQLITE_CANTOPEN'));
    assert.match(changes[0]!.problem!, /SQLITE_CANTOPEN.*Quit and start Gatehouse again/);
    // A data dir problem already says what to do (a newer database: upgrade, or another data folder); nothing is added to it.
    host.fail(new DataDirError('newer_schema', '/tmp/x/gatehouse.sqlite', 'Written by a newer Gatehouse: upgrade Gatehouse.'));
    assert.equal(changes[1]!.problem, 'The server could not start: Written by a newer Gatehouse: upgrade Gatehouse.');
  });
});

// Integration test of the built desktop main process (out/main/index.js) run against a stand-in `electron` module: gateway, secure window, every IPC channel, guards, tray, quit.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runMediaJob } from '../../electron/gateway/workers/media-jobs.ts';
import { CONSOLE_CSP } from '../../shared/console-address.ts';
import { IPC_INVOKE_CHANNELS } from '../../shared/ipc.ts';
import { ensureBuilt, OUT, ROOT } from '../helpers/build.ts';
import { newEvent, standIn, type FakeBrowserWindow } from '../helpers/electron-stand-in.ts';

const registerHooks = (module as unknown as { registerHooks?: (hooks: object) => void }).registerHooks;
const skip = registerHooks ? undefined : `this Node (${process.version}) lacks module.registerHooks, needed to stand in for electron`;
if (skip) console.log(`# skipping the desktop host test: ${skip}`);

describe('desktop host (built main bundle, stand-in electron)', { skip }, () => {
  const appData = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-desktop-'));
  let window: FakeBrowserWindow;
  let consoleUrl: string;
  const previousPort = process.env['GATEHOUSE_PORT'];

  /** Calls an IPC channel as the window's page (or as someone else). */
  const invoke = (channel: string, args: unknown[], from: { sender?: unknown; url?: string } = {}) =>
    Promise.resolve().then(() =>
      standIn.handlers.get(channel)!({ sender: from.sender ?? window.webContents, senderFrame: { url: from.url ?? consoleUrl } }, ...args),
    );

  before(async () => {
    await ensureBuilt();
    standIn.appData = appData;
    standIn.appPath = ROOT;
    process.env['GATEHOUSE_PORT'] = '0';
    const fake = pathToFileURL(path.join(ROOT, 'tests/helpers/electron-stand-in.ts')).href;
    registerHooks!({
      resolve: (specifier: string, context: unknown, next: (specifier: string, context: unknown) => unknown) =>
        specifier === 'electron' ? { url: fake, shortCircuit: true } : next(specifier, context),
    });
    await import(pathToFileURL(path.join(OUT, 'main/index.js')).href);
    consoleUrl = await standIn.firstLoad;
    window = standIn.windows[0]!;
  });

  after(() => {
    if (previousPort === undefined) delete process.env['GATEHOUSE_PORT'];
    else process.env['GATEHOUSE_PORT'] = previousPort;
    rmSync(appData, { recursive: true, force: true });
  });

  test('starts the gateway in the app-data folder and shows its console', async () => {
    assert.match(consoleUrl, /^http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    const page = await fetch(consoleUrl);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), CONSOLE_CSP);
    assert.equal(standIn.paths.get('userData'), path.join(appData, 'Gatehouse', 'desktop'));
    const connection: any = await invoke('gatehouse:get-connection', []);
    assert.equal(connection.gatewayUrl, new URL(consoleUrl).origin);
    assert.equal(connection.paused, false);
    const status = await fetch(`${connection.gatewayUrl}/admin/api/status`, {
      headers: { authorization: `Bearer ${connection.adminToken}` },
    });
    assert.equal(((await status.json()) as any).dataDir, path.join(appData, 'Gatehouse'), 'data sits where `gatehouse serve` keeps it');
  });

  test('the bundle makes speech on its media worker (out/main/media-worker.js), the same bytes as the sources', async () => {
    assert.ok(existsSync(path.join(OUT, 'main/media-worker.js')), 'the worker is its own bundle entry');
    const connection: any = await invoke('gatehouse:get-connection', []);
    const admin = { authorization: `Bearer ${connection.adminToken}`, 'content-type': 'application/json' };
    const created = await fetch(`${connection.gatewayUrl}/admin/api/tokens`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ account: 'local', name: 'media' }),
    });
    const { secret } = (await created.json()) as { secret: string };
    const input = 'Spoken by the bundled worker.';
    const speech = await fetch(`${connection.gatewayUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input, response_format: 'mp3' }),
    });
    assert.equal(speech.status, 200);
    assert.deepEqual(Buffer.from(await speech.arrayBuffer()), Buffer.from(runMediaJob('speech', { input, speed: 1, format: 'mp3' })));
  });

  test('creates its window with the secure web preferences and a CommonJS preload that exists', () => {
    const prefs = window.options.webPreferences;
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.preload, path.join(OUT, 'preload/index.cjs'));
    assert.ok(existsSync(prefs.preload));
    assert.equal(window.visible, true, 'shown once ready');
  });

  test('handles every IPC channel of the shared contract, for its own window only', async () => {
    assert.deepEqual([...standIn.handlers.keys()].sort(), [...IPC_INVOKE_CHANNELS].sort());
    await assert.rejects(invoke('gatehouse:get-connection', [], { sender: {} }), /not the Gatehouse window/);
    await assert.rejects(invoke('gatehouse:get-connection', [], { url: 'https://evil.example/console/' }), /not the Gatehouse window/);
    await assert.rejects(invoke('gatehouse:copy-text', [42]), /malformed arguments/);
    await assert.rejects(invoke('gatehouse:set-paused', ['yes']), /malformed arguments/);

    await invoke('gatehouse:copy-text', ['http://127.0.0.1:8790']);
    assert.deepEqual(standIn.copied, ['http://127.0.0.1:8790']);
    assert.equal(await invoke('gatehouse:open-external', ['https://github.com/gatehouse']), true);
    assert.equal(await invoke('gatehouse:open-external', ['file:///etc/passwd']), false);
    assert.equal(await invoke('gatehouse:open-external', ['javascript:alert(1)']), false);
    assert.deepEqual(standIn.opened, ['https://github.com/gatehouse']);
  });

  test('pause and resume stop and restart the server on the same port, telling the window and the tray', async () => {
    const { gatewayUrl } = (await invoke('gatehouse:get-connection', [])) as any;
    const paused: any = await invoke('gatehouse:set-paused', [true]);
    assert.deepEqual([paused.paused, paused.gatewayUrl], [true, null]);
    await assert.rejects(fetch(`${gatewayUrl}/healthz`));
    assert.equal(window.webContents.sent.at(-1)?.channel, 'gatehouse:connection-changed');
    const tray = standIn.trays[0]!;
    assert.match(tray.tooltip, /paused/);
    assert.ok(tray.menu!.template.some((item) => item.label === 'Resume server'));

    const resumed: any = await invoke('gatehouse:set-paused', [false]);
    assert.equal(resumed.gatewayUrl, gatewayUrl, 'same port after a pause');
    assert.equal((await fetch(`${gatewayUrl}/healthz`)).status, 200);
    assert.match(tray.tooltip, /running on/);
    const copy = tray.menu!.template.find((item) => item.label === 'Copy base URL');
    copy.click();
    assert.equal(standIn.copied.at(-1), gatewayUrl);
  });

  test('restart-server applies the saved settings and the window follows the server to its new address', async () => {
    const before: any = await invoke('gatehouse:get-connection', []);
    const auth = { authorization: `Bearer ${before.adminToken}`, 'content-type': 'application/json' };
    const status = async (base: string) => (await (await fetch(`${base}/admin/api/status`, { headers: auth })).json()) as any;
    assert.ok((await status(before.gatewayUrl)).tlsUrl, 'TLS runs by default, as with gatehouse serve');
    const saved = await fetch(`${before.gatewayUrl}/admin/api/settings`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ tlsPort: null, corsOrigins: ['http://localhost:5173'] }),
    });
    assert.equal(saved.status, 200);
    const view = (await saved.json()) as any;
    assert.equal(view.file, path.join(appData, 'Gatehouse', 'settings.json'));
    assert.deepEqual(view.pinned, { port: 'GATEHOUSE_PORT' });
    assert.deepEqual(view.restartNeeded, ['tlsPort']);

    const after: any = await invoke('gatehouse:restart-server', []);
    assert.notEqual(after.gatewayUrl, before.gatewayUrl, 'port 0 gives a new port at each start');
    assert.equal(after.adminToken, before.adminToken, 'the window stays signed in');
    await assert.rejects(fetch(`${before.gatewayUrl}/healthz`));
    const now = await status(after.gatewayUrl);
    assert.equal(now.tlsUrl, null);
    assert.deepEqual(now.corsOrigins, ['http://localhost:5173']);
    assert.equal(window.loaded.at(-1), `${after.gatewayUrl}/console/`);
    consoleUrl = window.loaded.at(-1)!;
  });

  test('navigation, new windows, webviews and permissions are refused; pages without a CSP get one', () => {
    const away = newEvent();
    window.webContents.emit('will-navigate', away, 'https://example.com/phish');
    assert.equal(away.defaultPrevented, true);
    assert.equal(standIn.opened.at(-1), 'https://example.com/phish', 'an https link opens in the browser instead');
    const inside = newEvent();
    window.webContents.emit('will-navigate', inside, consoleUrl);
    assert.equal(inside.defaultPrevented, false);
    const local = newEvent();
    window.webContents.emit('will-navigate', local, 'file:///etc/passwd');
    assert.equal(local.defaultPrevented, true);
    assert.equal(standIn.opened.includes('file:///etc/passwd'), false);
    assert.deepEqual(window.webContents.windowOpenHandler!({ url: consoleUrl }), { action: 'deny' });
    const webview = newEvent();
    window.webContents.emit('will-attach-webview', webview);
    assert.equal(webview.defaultPrevented, true);

    let granted: boolean | undefined;
    standIn.permissionRequest!({}, 'media', (answer) => (granted = answer));
    assert.equal(granted, false);
    assert.equal(standIn.permissionCheck!({}, 'clipboard-read'), false);
    let headers: any;
    standIn.headersReceived!({ resourceType: 'mainFrame', responseHeaders: {} }, (response) => (headers = response.responseHeaders));
    assert.deepEqual(headers['Content-Security-Policy'], [CONSOLE_CSP]);
  });

  test('closing the window remembers its bounds; quitting stops the gateway first', async () => {
    const { gatewayUrl } = (await invoke('gatehouse:get-connection', [])) as any;
    window.close();
    const saved = JSON.parse(readFileSync(path.join(appData, 'Gatehouse', 'desktop', 'window-state.json'), 'utf8'));
    assert.deepEqual(saved, { x: 10, y: 20, width: 1280, height: 820 });

    const { app } = await import('../helpers/electron-stand-in.ts');
    app.quit();
    assert.equal(standIn.quitted, false, 'the first quit waits for the gateway');
    await new Promise<void>((resolve) => {
      const check = () => (standIn.quitted ? resolve() : setImmediate(check));
      check();
    });
    await assert.rejects(fetch(`${gatewayUrl}/healthz`));
    assert.equal(standIn.trays[0]!.destroyed, true);
  });
});

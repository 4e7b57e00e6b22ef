// Electron host: runs the gateway with app-data paths and the keychain, shows the console in a locked-down window, and lives in the tray.
import {
  app,
  type BrowserWindow,
  clipboard,
  ipcMain,
  Menu,
  nativeImage,
  screen,
  session,
  shell,
  Tray,
  type IpcMainInvokeEvent,
} from 'electron';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CONSOLE_PATH } from '../../shared/console-address.ts';
import { isOpenableExternalUrl, type DesktopConnection, type IpcEventContract } from '../../shared/ipc.ts';
import { createGateway, DEFAULTS, selectSecretStore, type GatewayConfig } from '../gateway/index.ts';
import { toolHomeDir, toolVariables } from '../gateway/options/home-dir.ts';
import { desktopOptions } from './app-options.ts';
import { GatewayHost } from './gateway-host.ts';
import { registerIpc, type IpcHandlers } from './ipc.ts';
import { isAppUrl, originOf } from './navigation.ts';
import { guardWebContents, lockDownSession } from './security.ts';
import { createTray } from './tray.ts';
import { createMainWindow } from './window.ts';
import { loadBounds } from './window-state.ts';

/** Set by `electron-vite dev`: the renderer's dev server, which proxies API calls to the gateway on DEFAULTS.port. */
const DEV_URL = process.env['ELECTRON_RENDERER_URL'] || undefined;
const CHANGED: keyof IpcEventContract = 'gatehouse:connection-changed';

// The app's folder is where `gatehouse serve` keeps its data and settings file by default; the saved settings and
// the same GATEHOUSE_* variables as the CLI's may move the data elsewhere. Chromium's own profile goes into a sub-folder.
const APP_DIR = path.join(app.getPath('appData'), 'Gatehouse');
app.setPath('userData', path.join(APP_DIR, 'desktop'));

let host: GatewayHost | undefined;
let window: BrowserWindow | undefined;
let tray: ReturnType<typeof createTray> | undefined;
let quitting = false;

/**
 * The gateway's configuration, read again on each restart: the settings file and GATEHOUSE_* variables, as `gatehouse serve`
 * reads them (a taken port falls back to a free one). Under `npm run dev` the renderer's dev server proxies to the default port.
 */
async function gatewayConfig(): Promise<GatewayConfig> {
  const { options: resolved, ignored } = desktopOptions(process.env, APP_DIR);
  for (const name of ignored)
    console.warn(`gatehouse: ${name} is for gatehouse serve in a terminal; the desktop app leaves it out and keeps its own data folder`);
  const { settingsFile, defaultDataDir, pinned, secrets, ephemeral: _ephemeral, readyJson: _readyJson, ...options } = resolved;
  const { store, warning } = await selectSecretStore(secrets, options.dataDir);
  if (warning) console.warn(`gatehouse: ${warning}`);
  return {
    ...options,
    ...(DEV_URL && { port: DEFAULTS.port }),
    secrets: store,
    secretMode: secrets,
    reclaimIdleMemory: true,
    homeDir: toolHomeDir(process.env),
    toolVariables: toolVariables(process.env),
    ...(settingsFile && {
      settings: { file: settingsFile, defaultDataDir, pinned: DEV_URL ? { ...pinned, port: 'npm run dev' } : pinned },
    }),
  };
}

const allowedOrigins = () => [originOf(DEV_URL), originOf(host?.lastGatewayUrl)].filter((origin): origin is string => origin !== undefined);
const appUrl = (url: string) => isAppUrl(url, allowedOrigins());
const consoleUrl = (connection: DesktopConnection) =>
  DEV_URL ?? (connection.gatewayUrl ? `${connection.gatewayUrl}${CONSOLE_PATH}/` : undefined);

/** Only the main window's own page may talk to the host. */
function isTrusted(event: IpcMainInvokeEvent): boolean {
  return window !== undefined && event.sender === window.webContents && appUrl(event.senderFrame?.url ?? '');
}

function openExternal(url: string): boolean {
  if (!isOpenableExternalUrl(url)) return false;
  void shell.openExternal(url);
  return true;
}

function show(connection: DesktopConnection): void {
  if (!window) return;
  const target = consoleUrl(connection);
  if (target && originOf(window.webContents.getURL()) !== originOf(target)) void window.loadURL(target);
  else if (!target && connection.problem)
    void window.loadURL(
      `data:text/html;charset=utf-8,${encodeURIComponent(`<h1>Gatehouse</h1><p>${connection.problem.replace(/</g, '&lt;')}</p>`)}`,
    );
}

function openWindow(): void {
  if (window) {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    return;
  }
  window = createMainWindow({
    preload: path.join(import.meta.dirname, '../preload/index.cjs'),
    icon: path.join(app.getAppPath(), 'resources', 'icon.png'),
    bounds: loadBounds(
      path.join(app.getPath('userData'), 'window-state.json'),
      screen.getAllDisplays().map((display) => display.workArea),
    ),
    boundsFile: path.join(app.getPath('userData'), 'window-state.json'),
  });
  window.on('closed', () => (window = undefined));
  if (host) show(host.connection());
}

function onChange(connection: DesktopConnection): void {
  tray?.update(connection);
  if (window && !window.webContents.isDestroyed()) {
    window.webContents.send(CHANGED, connection);
    if (!connection.paused) show(connection);
  }
}

const handlers: IpcHandlers = {
  'gatehouse:get-connection': () => host!.connection(),
  'gatehouse:set-paused': (paused) => (paused ? host!.pause() : host!.resume()),
  'gatehouse:restart-server': () => host!.restart(),
  'gatehouse:open-external': (url) => openExternal(url),
  'gatehouse:copy-text': (text) => clipboard.writeText(text),
};

async function launch(): Promise<void> {
  host = new GatewayHost({
    config: gatewayConfig,
    adminToken: randomBytes(32).toString('base64url'),
    create: createGateway,
    onChange,
  });
  lockDownSession(session.defaultSession, { enforceCsp: !DEV_URL });
  registerIpc(ipcMain, handlers, isTrusted);
  try {
    const icon = nativeImage.createFromPath(path.join(app.getAppPath(), 'resources', 'icon.png')).resize({ width: 18, height: 18 });
    tray = createTray(
      {
        Tray,
        buildMenu: (template) => Menu.buildFromTemplate(template),
        icon,
        actions: {
          open: openWindow,
          openInBrowser: () => {
            const { gatewayUrl, adminToken } = host!.connection();
            if (gatewayUrl) void shell.openExternal(`${gatewayUrl}${CONSOLE_PATH}/?admin_token=${encodeURIComponent(adminToken)}`);
          },
          copyBaseUrl: () => clipboard.writeText(host!.connection().gatewayUrl ?? ''),
          setPaused: (paused) => void (paused ? host!.pause() : host!.resume()),
          quit: () => app.quit(),
        },
      },
      host.connection(),
    );
  } catch (error) {
    console.warn(`gatehouse: no tray icon (${String(error)}); closing the window quits`);
  }
  try {
    await host.start();
  } catch (error) {
    host.fail(error);
  }
  openWindow();
}

if (!app.requestSingleInstanceLock()) app.quit();
else {
  app.on('second-instance', openWindow);
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, { isAppUrl: appUrl, openExternal }));
  app.whenReady().then(launch, (error: unknown) => {
    console.error(error);
    app.exit(1);
  });
  app.on('activate', openWindow);
  // With a tray icon the server keeps running when the window closes; without one, closing the window quits.
  app.on('window-all-closed', () => {
    if (!tray) app.quit();
  });
  app.on('before-quit', (event) => {
    if (quitting || !host) return;
    event.preventDefault();
    quitting = true;
    host.stop().finally(() => {
      tray?.tray.destroy();
      app.quit();
    });
  });
}

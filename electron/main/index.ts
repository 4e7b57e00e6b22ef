// Electron host: starts the gateway with app-data paths and the keychain, and shows the renderer in a window.
import { app, BrowserWindow } from 'electron';
import path from 'node:path';
import { createGateway, type Gateway } from '../gateway/index.ts';
import { selectSecretStore } from '../gateway/secrets/select-store.ts';

let gateway: Gateway | undefined;

async function launch(): Promise<void> {
  const dataDir = app.getPath('userData');
  const { store } = await selectSecretStore('auto', dataDir);
  gateway = await createGateway({ dataDir, secrets: store, port: 0 });
  const { url } = await gateway.start();
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  const rendererUrl = process.env['ELECTRON_RENDERER_URL'];
  const query = { gateway: url };
  if (rendererUrl) await window.loadURL(`${rendererUrl}?${new URLSearchParams(query)}`);
  else await window.loadFile(path.join(import.meta.dirname, '../renderer/index.html'), { query });
}

if (!app.requestSingleInstanceLock()) app.quit();
else {
  app.whenReady().then(launch, (error: unknown) => {
    console.error(error);
    app.exit(1);
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!gateway) return;
    event.preventDefault();
    const stopping = gateway;
    gateway = undefined;
    void stopping.stop().finally(() => app.quit());
  });
}

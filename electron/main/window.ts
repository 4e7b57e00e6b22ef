// The main window: secure web preferences (written out here so the security scan can read them), remembered bounds, shown when ready.
import { BrowserWindow } from 'electron';
import { MIN_SIZE, saveBounds, type WindowBounds } from './window-state.ts';

export interface WindowOptions {
  preload: string;
  icon: string;
  bounds: WindowBounds;
  /** File the bounds are saved to when the window closes. */
  boundsFile: string;
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const { maximized, ...bounds } = options.bounds;
  const window = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Gatehouse',
    icon: options.icon,
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      // Middle-click would open links in new windows around the window-open handler.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
  window.on('close', () => {
    const normal = window.getNormalBounds();
    saveBounds(options.boundsFile, { ...normal, ...(window.isMaximized() && { maximized: true }) });
  });
  return window;
}

// Test helper: a stand-in for the `electron` module that records what the main process does (windows, IPC, tray, session, shell).
import { EventEmitter } from 'node:events';

/** A cancellable Electron event. */
export interface StandInEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

export const newEvent = (): StandInEvent => ({
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true;
  },
});

/** Everything the stand-in saw, for the test to inspect. */
export const standIn = {
  appData: '',
  appPath: '',
  paths: new Map<string, string>(),
  windows: [] as FakeBrowserWindow[],
  trays: [] as FakeTray[],
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  opened: [] as string[],
  copied: [] as string[],
  quitted: false,
  exitCode: undefined as number | undefined,
  permissionRequest: undefined as undefined | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
  permissionCheck: undefined as undefined | ((...args: unknown[]) => boolean),
  headersReceived: undefined as undefined | ((details: any, callback: (response: any) => void) => void),
  /** Resolves with the first URL a window loads. */
  firstLoad: undefined as unknown as Promise<string>,
};
let announceLoad: (url: string) => void;
standIn.firstLoad = new Promise((resolve) => (announceLoad = resolve));

class FakeApp extends EventEmitter {
  requestSingleInstanceLock = () => true;
  whenReady = () => Promise.resolve();
  getPath = (name: string) => standIn.paths.get(name) ?? (name === 'appData' ? standIn.appData : `${standIn.appData}/${name}`);
  setPath = (name: string, value: string) => void standIn.paths.set(name, value);
  getAppPath = () => standIn.appPath;
  quit = () => {
    const event = newEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) standIn.quitted = true;
  };
  exit = (code = 0) => void (standIn.exitCode = code);
}
export const app = new FakeApp();

export class FakeWebContents extends EventEmitter {
  url = '';
  sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  send = (channel: string, ...args: unknown[]) => void this.sent.push({ channel, args });
  getURL = () => this.url;
  isDestroyed = () => false;
  setWindowOpenHandler = (handler: (details: { url: string }) => { action: string }) => void (this.windowOpenHandler = handler);
}

export class FakeBrowserWindow extends EventEmitter {
  readonly options: any;
  readonly webContents = new FakeWebContents();
  loaded: string[] = [];
  visible = false;
  constructor(options: any) {
    super();
    this.options = options;
    standIn.windows.push(this);
    app.emit('web-contents-created', newEvent(), this.webContents);
  }
  loadURL = async (url: string) => {
    this.loaded.push(url);
    this.webContents.url = url;
    announceLoad(url);
    this.emit('ready-to-show');
  };
  show = () => void (this.visible = true);
  focus = () => {};
  isMinimized = () => false;
  restore = () => {};
  maximize = () => {};
  isMaximized = () => false;
  getNormalBounds = () => ({ x: 10, y: 20, width: this.options.width, height: this.options.height });
  close = () => {
    this.emit('close', newEvent());
    this.emit('closed');
  };
}
export const BrowserWindow = FakeBrowserWindow;

export class FakeTray extends EventEmitter {
  readonly image: unknown;
  tooltip = '';
  menu: { template: any[] } | undefined;
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    standIn.trays.push(this);
  }
  setToolTip = (text: string) => void (this.tooltip = text);
  setContextMenu = (menu: { template: any[] }) => void (this.menu = menu);
  destroy = () => void (this.destroyed = true);
}
export const Tray = FakeTray;

export const Menu = { buildFromTemplate: (template: any[]) => ({ template }) };
export const ipcMain = {
  handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => void standIn.handlers.set(channel, handler),
};
export const shell = { openExternal: async (url: string) => void standIn.opened.push(url) };
export const clipboard = { writeText: (text: string) => void standIn.copied.push(text) };
export const nativeImage = {
  createFromPath: (file: string) => {
    const image = { file, resize: () => image };
    return image;
  },
};
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler: typeof standIn.permissionRequest) => void (standIn.permissionRequest = handler),
    setPermissionCheckHandler: (handler: typeof standIn.permissionCheck) => void (standIn.permissionCheck = handler),
    webRequest: { onHeadersReceived: (handler: typeof standIn.headersReceived) => void (standIn.headersReceived = handler) },
  },
};
export default { app, BrowserWindow, Tray, Menu, ipcMain, shell, clipboard, nativeImage, screen, session };

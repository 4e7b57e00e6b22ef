// Preload bridge: the tiny, typed surface the console gets in the desktop app (connection info and a few native actions).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  BRIDGE_NAME,
  type DesktopConnection,
  type GatehouseBridge,
  type IpcEventContract,
  type IpcInvokeChannel,
  type IpcInvokeContract,
} from '../../shared/ipc.ts';

const invoke = <C extends IpcInvokeChannel>(channel: C, ...args: IpcInvokeContract[C]['args']) =>
  ipcRenderer.invoke(channel, ...args) as Promise<IpcInvokeContract[C]['result']>;

const CHANGED: keyof IpcEventContract = 'gatehouse:connection-changed';

const bridge: GatehouseBridge = {
  host: 'electron',
  getConnection: () => invoke('gatehouse:get-connection'),
  setPaused: (paused) => invoke('gatehouse:set-paused', paused),
  restartServer: () => invoke('gatehouse:restart-server'),
  openExternal: (url) => invoke('gatehouse:open-external', url),
  copyText: (text) => invoke('gatehouse:copy-text', text),
  onConnectionChanged(listener) {
    const handler = (_event: IpcRendererEvent, connection: DesktopConnection) => listener(connection);
    ipcRenderer.on(CHANGED, handler);
    return () => void ipcRenderer.removeListener(CHANGED, handler);
  },
};

contextBridge.exposeInMainWorld(BRIDGE_NAME, bridge);

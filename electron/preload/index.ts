// Preload bridge: tells the renderer it runs inside the desktop host; the gateway URL arrives in the page's query.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('gatehouse', { host: 'electron' });

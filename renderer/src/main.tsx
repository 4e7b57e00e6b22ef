// Console entry: finds the gateway (desktop bridge or ?admin_token= handoff), builds the stores, starts live updates, mounts the app.
import { createRoot } from 'react-dom/client';
import { BRIDGE_NAME, type GatehouseBridge } from '../../shared/ipc.ts';
import { platformSocket } from './api/admin-socket.ts';
import { App } from './App.tsx';
import { StoresContext } from './context.ts';
import { MissingToken } from './features/overview/MissingToken.tsx';
import { connectionFromDesktop, resolveBrowserConnection, type Connection } from './stores/connection.ts';
import { localeOf } from './i18n/index.ts';
import { createConsoleStores, startLiveUpdates } from './stores/index.ts';
import { pageOfHash } from './stores/navigation.ts';
import { memoryStorage, type KeyValueStorage } from './stores/storage.ts';
import './styles.css';

/** Web Storage when the page may use it, else memory (e.g. storage blocked by the browser). */
function storageOf(kind: 'localStorage' | 'sessionStorage'): KeyValueStorage {
  try {
    const storage = window[kind];
    storage.getItem('probe');
    return storage;
  } catch {
    return memoryStorage();
  }
}

async function boot(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  const bridge = (window as unknown as Record<string, GatehouseBridge | undefined>)[BRIDGE_NAME] ?? null;
  const session = storageOf('sessionStorage');
  let connection: Connection | null = null;
  const desktop = bridge ? await bridge.getConnection() : null;
  if (desktop) connection = connectionFromDesktop(desktop, window.location.origin);
  else {
    const handoff = resolveBrowserConnection(window.location.href, session);
    if (handoff.kind === 'ready') {
      window.history.replaceState(null, '', handoff.cleanUrl);
      connection = handoff.connection;
    }
  }
  if (!connection) {
    root.render(<MissingToken language={navigator.language} />);
    return;
  }

  const stores = createConsoleStores({
    connection,
    bridge,
    session,
    local: storageOf('localStorage'),
    browserLanguage: navigator.language,
    initialPage: pageOfHash(window.location.hash),
  });
  if (desktop && bridge) {
    stores.connection.getState().setDesktop(desktop);
    bridge.onConnectionChanged((next) => {
      stores.connection.getState().setDesktop(next);
      if (!next.paused) void stores.status.getState().load();
    });
  }

  // The address hash mirrors the page, both ways.
  window.addEventListener('hashchange', () => stores.navigation.getState().go(pageOfHash(window.location.hash)));
  stores.navigation.subscribe((state) => {
    if (pageOfHash(window.location.hash) !== state.page) window.location.hash = `#/${state.page}`;
  });

  // Theme and language go on the root element, so CSS and assistive technology follow them.
  const applyPrefs = () => {
    const { theme, language } = stores.prefs.getState();
    const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.dataset['theme'] = dark ? 'dark' : 'light';
    document.documentElement.lang = localeOf(language);
  };
  applyPrefs();
  stores.prefs.subscribe(applyPrefs);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyPrefs);

  startLiveUpdates(stores, platformSocket);
  void stores.status.getState().load();
  root.render(
    <StoresContext.Provider value={stores}>
      <App />
    </StoresContext.Provider>,
  );
}

void boot();

// The console's frame: navigation, account picker, connection state and the current page.
import { useEffect, useState } from 'react';
import { Shortcuts } from './components/Shortcuts.tsx';
import { useAccountChoices } from './components/use-account-choices.ts';
import { useStores } from './context.ts';
import { AssetsPage } from './features/assets/AssetsPage.tsx';
import { CassettesPage } from './features/cassettes/CassettesPage.tsx';
import { ChannelsPage } from './features/channels/ChannelsPage.tsx';
import { ConnectPage } from './features/connect/ConnectPage.tsx';
import { FixturesPage } from './features/fixtures/FixturesPage.tsx';
import { LogsPage } from './features/logs/LogsPage.tsx';
import { ModelsPage } from './features/models/ModelsPage.tsx';
import { OverviewPage } from './features/overview/OverviewPage.tsx';
import { PlaygroundPage } from './features/playground/PlaygroundPage.tsx';
import { SettingsPage } from './features/settings/SettingsPage.tsx';
import { Tasks3dPage } from './features/tasks3d/Tasks3dPage.tsx';
import { TokensPage } from './features/tokens/TokensPage.tsx';
import { useT, type MessageKey } from './i18n/index.ts';
import { useServerText } from './i18n/server-texts.ts';
import { PAGES, type PageName } from './stores/navigation.ts';

const PAGE_TITLES: Record<PageName, MessageKey> = {
  overview: 'navOverview',
  connect: 'navConnect',
  models: 'navModels',
  assets: 'navAssets',
  tasks3d: 'navTasks3d',
  playground: 'navPlayground',
  tokens: 'navTokens',
  channels: 'navChannels',
  fixtures: 'navFixtures',
  cassettes: 'navCassettes',
  logs: 'navLogs',
  settings: 'navSettings',
};

function CurrentPage(props: { page: PageName }) {
  switch (props.page) {
    case 'overview':
      return <OverviewPage />;
    case 'connect':
      return <ConnectPage />;
    case 'models':
      return <ModelsPage />;
    case 'assets':
      return <AssetsPage />;
    case 'tasks3d':
      return <Tasks3dPage />;
    case 'playground':
      return <PlaygroundPage />;
    case 'tokens':
      return <TokensPage />;
    case 'channels':
      return <ChannelsPage />;
    case 'fixtures':
      return <FixturesPage />;
    case 'cassettes':
      return <CassettesPage />;
    case 'logs':
      return <LogsPage />;
    case 'settings':
      return <SettingsPage />;
  }
}

function AccountPicker() {
  const t = useT();
  const { status } = useStores();
  const account = status((state) => state.account);
  const setAccount = status((state) => state.setAccount);
  const choices = useAccountChoices(account);
  return (
    <label className="account-picker">
      <span>{t('account')}</span>
      <select value={account} onChange={(event) => setAccount(event.target.value)} aria-label={t('account')}>
        {choices.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

function ConnectionBanner() {
  const t = useT();
  const { connection } = useStores();
  const socket = connection((state) => state.socket);
  const paused = connection((state) => state.paused);
  const problem = connection((state) => state.problem);
  const serverText = useServerText();
  if (problem)
    return (
      <div className="banner error" role="alert">
        {serverText(problem)}
      </div>
    );
  if (paused)
    return (
      <div className="banner warn" role="status">
        {t('serverPaused')}
      </div>
    );
  if (socket === 'refused')
    return (
      <div className="banner error" role="alert">
        {t('staleAdminToken')}
      </div>
    );
  if (socket === 'retrying')
    return (
      <div className="banner warn" role="status">
        {t('socketRetrying')}
      </div>
    );
  return null;
}

export function App() {
  const t = useT();
  const { navigation, connection } = useStores();
  const page = navigation((state) => state.page);
  const go = navigation((state) => state.go);
  const socket = connection((state) => state.socket);
  // Under the narrow breakpoint (styles.css) the page links are a menu behind a button; any page change closes it.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [page]);
  useEffect(() => {
    document.title = `${t(PAGE_TITLES[page])} · Gatehouse`;
  }, [page, t]);
  return (
    <div className="app">
      <nav
        className="sidebar"
        aria-label={t('navigation')}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && menuOpen) setMenuOpen(false);
        }}
      >
        <div className="brand">Gatehouse</div>
        <button
          type="button"
          className="button menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav-links"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰ </span>
          {t('menu')}
        </button>
        <ul id="nav-links" className={menuOpen ? 'open' : undefined}>
          {PAGES.map((name) => (
            <li key={name}>
              <a
                href={`#/${name}`}
                className={name === page ? 'active' : undefined}
                aria-current={name === page ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  go(name);
                  setMenuOpen(false);
                }}
              >
                {t(PAGE_TITLES[name])}
              </a>
            </li>
          ))}
        </ul>
        <div className={`live live-${socket}`} title={t(`socket_${socket}`)}>
          <span className="dot" aria-hidden="true" /> {t(`socket_${socket}`)}
        </div>
        <p className="muted shortcut-hint">{t('shortcutHint')}</p>
      </nav>
      <main className="content">
        <header className="topbar">
          <h1>{t(PAGE_TITLES[page])}</h1>
          <AccountPicker />
        </header>
        <ConnectionBanner />
        {socket === 'refused' ? null : <CurrentPage page={page} />}
      </main>
      <Shortcuts titles={PAGE_TITLES} />
    </div>
  );
}

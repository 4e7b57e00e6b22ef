// Settings: the console's theme and language, the saved server settings, and this run's effective values with the flag that sets each.
import { useState } from 'react';
import { useStores } from '../../context.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { formatTime, useT, type MessageKey } from '../../i18n/index.ts';
import { Button, ErrorNote, Panel } from '../../components/ui.tsx';
import { LANGUAGES, THEMES } from '../../stores/prefs.ts';
import { messageOf } from '../../stores/storage.ts';
import { PricesCard } from './PricesCard.tsx';
import { ConsoleAddress } from './ConsoleAddress.tsx';
import { ServerForm } from './ServerForm.tsx';

const LANGUAGE_NAMES = { en: 'English', zh: '中文' } as const;

function Appearance() {
  const t = useT();
  const { prefs } = useStores();
  const theme = prefs((state) => state.theme);
  const language = prefs((state) => state.language);
  return (
    <Panel title={t('appearance')}>
      <fieldset className="choices">
        <legend>{t('theme')}</legend>
        {THEMES.map((item) => (
          <label key={item}>
            <input type="radio" name="theme" value={item} checked={theme === item} onChange={() => prefs.getState().setTheme(item)} />
            {t(`theme_${item}`)}
          </label>
        ))}
      </fieldset>
      <label className="field">
        <span className="field-label">{t('language')}</span>
        <select
          value={language}
          onChange={(event) => prefs.getState().setLanguage(event.target.value as (typeof LANGUAGES)[number])}
          aria-label={t('language')}
        >
          {LANGUAGES.map((item) => (
            <option key={item} value={item}>
              {LANGUAGE_NAMES[item]}
            </option>
          ))}
        </select>
      </label>
    </Panel>
  );
}

interface SettingRow {
  label: MessageKey;
  value: string;
  flag: string;
}

function ServerSettings() {
  const t = useT();
  const serverText = useServerText();
  const { status: statusStore, call, prefs } = useStores();
  const status = statusStore((state) => state.status);
  const host = useStores().connection((state) => state.connection?.host);
  const language = prefs((state) => state.language);
  const [scanning, setScanning] = useState(false);
  const [scanResult, setScanResult] = useState<string | null>(null);
  const [scanError, setScanError] = useState<string | null>(null);
  if (!status) return null;
  const rows: SettingRow[] = [
    { label: 'host', value: status.host, flag: '--host / GATEHOUSE_HOST' },
    { label: 'port', value: String(status.port), flag: '--port / GATEHOUSE_PORT' },
    { label: 'tlsUrl', value: status.tlsUrl ?? t('tlsOff'), flag: '--tls-port / GATEHOUSE_TLS_PORT' },
    {
      label: 'corsOrigins',
      value: status.corsOrigins.length > 0 ? status.corsOrigins.join(', ') : t('corsSameOrigin'),
      flag: '--cors-origins / GATEHOUSE_CORS_ORIGINS',
    },
    {
      label: 'refreshInterval',
      value: t('everyMinutes', { minutes: +(status.refreshIntervalMs / 60_000).toFixed(2) }),
      flag: '--refresh-interval-ms / GATEHOUSE_REFRESH_INTERVAL_MS',
    },
    { label: 'dataFolder', value: status.dataDir, flag: '--data-dir / GATEHOUSE_DATA_DIR' },
    { label: 'secretsKept', value: serverText(status.secrets.description), flag: '--secrets / GATEHOUSE_SECRETS' },
    { label: 'unroutedModels', value: status.unrouted, flag: '--unrouted / GATEHOUSE_UNROUTED' },
  ];
  const scan = async () => {
    setScanning(true);
    setScanError(null);
    try {
      const report = await call('runScan');
      setScanResult(t('scanDone', { checked: report.checked, when: formatTime(language, report.finishedAt) }));
      void statusStore.getState().load();
    } catch (error) {
      setScanError(messageOf(error));
    } finally {
      setScanning(false);
    }
  };
  return (
    <Panel title={t('thisRun')}>
      <p className="muted">{host === 'electron' ? t('settingsDesktopNote') : t('settingsCliNote')}</p>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>{t('setting')}</th>
              <th>{t('current')}</th>
              <th>{t('howToChange')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <td>{t(row.label)}</td>
                <td>
                  <code title={row.value}>{row.value}</code>
                </td>
                <td className="muted small">{row.flag}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        <Button busy={scanning} onClick={() => void scan()}>
          {scanning ? t('scanning') : t('scanNow')}
        </Button>
        {scanResult && <span className="muted">{scanResult}</span>}
      </div>
      <ErrorNote message={scanError} />
    </Panel>
  );
}

/** In the desktop app: pause or resume the server (the tray offers the same). */
function DesktopServer() {
  const t = useT();
  const { connection } = useStores();
  const bridge = connection((state) => state.bridge);
  const paused = connection((state) => state.paused);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!bridge) return null;
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      connection.getState().setDesktop(await bridge.setPaused(!paused));
    } catch (reason) {
      setError(messageOf(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title={t('desktopServer')}>
      <Button busy={busy} kind={paused ? 'primary' : 'plain'} onClick={() => void toggle()}>
        {paused ? t('resumeServer') : t('pauseServer')}
      </Button>
      <ErrorNote message={error} />
    </Panel>
  );
}

export function SettingsPage() {
  return (
    <div className="page settings-page">
      <div className="stack">
        <Appearance />
        <DesktopServer />
        <ConsoleAddress />
      </div>
      <div className="stack">
        <ServerForm />
        <ServerSettings />
        <PricesCard />
      </div>
    </div>
  );
}

// The saved server settings form: port, host, TLS, CORS origins, refresh interval, data folder and unrouted models, checked as typed, with what applies when.
import { useEffect, useState, type FormEvent } from 'react';
import { isLoopbackHost, SECRET_STORE_MODES, UNROUTED_POLICIES, type SettingKey } from '../../../../shared/settings.ts';
import { useStores } from '../../context.ts';
import type { SettingsDraft } from '../../stores/settings.ts';
import { useT, type MessageKey } from '../../i18n/index.ts';
import { Button, ErrorNote, Field, Panel } from '../../components/ui.tsx';

const LABELS: Record<SettingKey, MessageKey> = {
  host: 'host',
  port: 'port',
  tlsPort: 'tlsPort',
  corsOrigins: 'corsOrigins',
  refreshIntervalMs: 'refreshMinutes',
  dataDir: 'dataFolder',
  unrouted: 'unroutedModels',
  modelAliases: 'aliasesTitle',
  secrets: 'secretStore',
};

/** A value of a setting chosen from a list. */
type Choice<K extends keyof SettingsDraft> = NonNullable<SettingsDraft[K]>;

export function ServerForm() {
  const t = useT();
  const { settings, connection, status } = useStores();
  const { view, draft, problems, saving, restarting, restartLost, error, savedNote, loading } = settings();
  const canRestart = status((state) => state.status?.canRestart ?? false);
  const bridge = connection((state) => state.bridge);
  const [restarted, setRestarted] = useState(false);

  useEffect(() => {
    void settings.getState().load();
  }, [settings]);

  if (!view || !draft) {
    return (
      <Panel title={t('savedSettings')}>
        {loading && <p className="muted">…</p>}
        <ErrorNote message={error} onRetry={() => void settings.getState().load()} />
      </Panel>
    );
  }
  if (!view.editable) {
    return (
      <Panel title={t('savedSettings')}>
        <p className="muted">{t('savedSettingsReadOnly')}</p>
      </Panel>
    );
  }

  const edit = settings.getState().edit;
  const hint = (key: SettingKey, base?: string) => {
    const flag = view.pinned[key];
    return flag ? t('pinnedBy', { flag }) : base;
  };
  /** A setting a flag or environment variable sets on this run is shown, not offered for saving. */
  const pinned = (key: SettingKey) => Boolean(view.pinned[key]);
  /** The select of a setting chosen from a list (`choices`, each shown as `text(choice)`), as its other fields are: label, problem, hint or pin. */
  const choiceField = <K extends 'unrouted' | 'secrets'>(
    key: K,
    value: Choice<K>,
    base: string,
    choices: readonly Choice<K>[],
    text: (choice: Choice<K>) => string,
  ) => (
    <Field label={t(LABELS[key])} error={problems[key]} hint={hint(key, base)}>
      <select value={value} disabled={pinned(key)} onChange={(event) => edit({ [key]: event.target.value } as Partial<SettingsDraft>)}>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {text(choice)}
          </option>
        ))}
      </select>
    </Field>
  );
  const names = (keys: SettingKey[]) => keys.map((key) => t(LABELS[key])).join(', ');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRestarted(false);
    if (await settings.getState().save()) void status.getState().load();
  };
  const restart = async () => {
    if (!bridge) return;
    const next = await settings.getState().restart(bridge);
    if (next) {
      connection.getState().setDesktop(next);
      setRestarted(true);
      // On the same address the page stays: read the new values. On a new one the desktop host loads the console there.
      void settings.getState().load();
      void status.getState().load();
    }
  };
  // Under `gatehouse serve`: the same process starts a new run with the saved settings.
  const restartHere = async () => {
    const startedAt = status.getState().status?.startedAt ?? 0;
    if (await settings.getState().restartServe(startedAt)) {
      setRestarted(true);
      void settings.getState().load();
      void status.getState().load();
    }
  };
  const hasProblems = Object.keys(problems).length > 0;

  return (
    <Panel title={t('savedSettings')}>
      <p className="muted small">{t('savedSettingsNote', { file: view.file ?? '' })}</p>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={t('savedSettings')}>
        <Field
          label={t('host')}
          error={problems.host}
          hint={hint('host', isLoopbackHost(draft.host.trim()) ? t('hostHint') : t('hostExposed'))}
        >
          <input value={draft.host} disabled={pinned('host')} onChange={(event) => edit({ host: event.target.value })} spellCheck={false} />
        </Field>
        <Field label={t('port')} error={problems.port} hint={hint('port', t('portHint'))}>
          <input
            value={draft.port}
            inputMode="numeric"
            disabled={pinned('port')}
            onChange={(event) => edit({ port: event.target.value })}
          />
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.tlsEnabled}
            disabled={pinned('tlsPort')}
            onChange={(event) => edit({ tlsEnabled: event.target.checked })}
          />
          {t('tlsEnabled')}
        </label>
        {draft.tlsEnabled && (
          <Field label={t('tlsPort')} error={problems.tlsPort} hint={hint('tlsPort')}>
            <input
              value={draft.tlsPort}
              inputMode="numeric"
              disabled={pinned('tlsPort')}
              onChange={(event) => edit({ tlsPort: event.target.value })}
            />
          </Field>
        )}
        <Field label={t('corsOrigins')} error={problems.corsOrigins} hint={hint('corsOrigins', t('corsHint'))}>
          <textarea
            rows={3}
            value={draft.corsOrigins}
            spellCheck={false}
            placeholder={t('example', { value: 'http://localhost:5173' })}
            disabled={pinned('corsOrigins')}
            onChange={(event) => edit({ corsOrigins: event.target.value })}
          />
        </Field>
        <Field label={t('refreshMinutes')} error={problems.refreshIntervalMs} hint={hint('refreshIntervalMs', t('refreshHint'))}>
          <input
            value={draft.refreshMinutes}
            inputMode="decimal"
            disabled={pinned('refreshIntervalMs')}
            onChange={(event) => edit({ refreshMinutes: event.target.value })}
          />
        </Field>
        <Field label={t('dataFolder')} error={problems.dataDir} hint={hint('dataDir', t('dataDirHint'))}>
          <input
            value={draft.dataDir}
            placeholder={t('defaultFolder')}
            spellCheck={false}
            disabled={pinned('dataDir')}
            onChange={(event) => edit({ dataDir: event.target.value })}
          />
        </Field>
        {draft.unrouted !== undefined &&
          choiceField('unrouted', draft.unrouted, t('unroutedHint'), UNROUTED_POLICIES, (policy) => t(`unrouted_${policy}`))}
        {draft.secrets !== undefined &&
          choiceField('secrets', draft.secrets, t('secretStoreHint'), SECRET_STORE_MODES, (mode) => t(`secrets_${mode}`))}
        <div className="row">
          <Button type="submit" kind="primary" busy={saving} disabled={hasProblems}>
            {saving ? t('savingSettings') : t('saveSettings')}
          </Button>
          {hasProblems && <span className="field-error">{t('fixProblems')}</span>}
        </div>
      </form>
      {savedNote && (
        <p role="status" className="muted">
          {savedNote.live.length > 0 ? t('appliedNow', { keys: names(savedNote.live) }) : t('savedNoChange')}
        </p>
      )}
      {view.restartNeeded.length > 0 && (
        <div className="notice" role="status">
          <p>{t('waitsForRestart', { keys: names(view.restartNeeded) })}</p>
          {bridge ? (
            <Button busy={restarting} onClick={() => void restart()}>
              {restarting ? t('restarting') : t('restartServer')}
            </Button>
          ) : canRestart ? (
            <>
              <Button busy={restarting} onClick={() => void restartHere()}>
                {restarting ? t('restarting') : t('restartServer')}
              </Button>
              <p className="muted">
                {t('restartOr')} {t('restartCli')}
              </p>
            </>
          ) : (
            <p className="muted">{t('restartCli')}</p>
          )}
        </div>
      )}
      {restarted && view.restartNeeded.length === 0 && (
        <p role="status" className="muted">
          {t('restarted')}
        </p>
      )}
      {restartLost && (
        <p role="alert" className="danger-text">
          {t('restartLost')}
        </p>
      )}
      <ErrorNote message={error} />
    </Panel>
  );
}

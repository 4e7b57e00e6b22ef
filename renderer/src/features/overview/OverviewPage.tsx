// Overview: is the server up, where it listens, where data and secrets live, the usage dashboard, and copyable quick-start snippets.
import { useState } from 'react';
import { useStores } from '../../context.ts';
import { formatRelative, formatTime, useT } from '../../i18n/index.ts';
import { Button, CopyButton, ErrorNote, Panel, Tabs } from '../../components/ui.tsx';
import { useServerText } from '../../i18n/server-texts.ts';
import { useNow } from '../../components/use-now.ts';
import { UsageDashboard } from './UsageDashboard.tsx';
import { SNIPPET_KINDS, snippet, TOKEN_PLACEHOLDER, type SnippetKind } from './snippets.ts';
import { useFamilyModels } from '../connect/family-models.ts';

function Fact(props: { label: string; value: string; copy?: boolean; testId?: string }) {
  return (
    <div className="fact">
      <dt>{props.label}</dt>
      <dd>
        <code data-testid={props.testId}>{props.value}</code>
        {props.copy && props.value !== '—' && <CopyButton text={props.value} />}
      </dd>
    </div>
  );
}

function QuickStart(props: { baseUrl: string }) {
  const t = useT();
  const { apiKeys, status } = useStores();
  const account = status((state) => state.account);
  const key = apiKeys((state) => state.keys[account]);
  const busy = apiKeys((state) => state.busy);
  const error = apiKeys((state) => state.error);
  const [kind, setKind] = useState<SnippetKind>('curl');
  const models = useFamilyModels();
  const text = models ? snippet(kind, props.baseUrl, key?.secret ?? TOKEN_PLACEHOLDER, models) : t('loading');
  return (
    <Panel
      title={t('quickStart')}
      actions={
        key ? (
          <span className="muted">{t(key.source === 'created' ? 'tokenFilledCreated' : 'tokenFilledRevealed', { account })}</span>
        ) : (
          <Button busy={busy} onClick={() => void apiKeys.getState().obtain(account)}>
            {t('fillToken')}
          </Button>
        )
      }
    >
      <Tabs items={SNIPPET_KINDS} active={kind} onSelect={setKind} labelOf={(item) => t(`snippet_${item}`)} />
      <pre className="code" data-testid="snippet">
        {text}
      </pre>
      <div className="row">
        <CopyButton text={text} />
        {!key && <span className="muted">{t('snippetPlaceholderHint', { placeholder: TOKEN_PLACEHOLDER })}</span>}
      </div>
      <ErrorNote message={error} />
    </Panel>
  );
}

export function OverviewPage() {
  const t = useT();
  const { status: statusStore, prefs } = useStores();
  const status = statusStore((state) => state.status);
  const error = statusStore((state) => state.error);
  const loading = statusStore((state) => state.loading);
  const language = prefs((state) => state.language);
  const now = useNow(1000);
  const serverText = useServerText();
  return (
    <div className="page overview">
      <ErrorNote message={error} onRetry={() => void statusStore.getState().load()} />
      <Panel
        title={t('serverStatus')}
        actions={
          <Button busy={loading} onClick={() => void statusStore.getState().load()}>
            {t('reload')}
          </Button>
        }
      >
        {status ? (
          <dl className="facts">
            <Fact label={t('state')} value={t('running', { mode: status.mode })} testId="server-state" />
            <Fact label={t('unroutedModels')} value={t(`unrouted_${status.unrouted}`)} testId="server-unrouted" />
            <Fact label={t('baseUrl')} value={status.url} copy testId="base-url" />
            <Fact label={t('openaiBaseUrl')} value={`${status.url}/v1`} copy />
            <Fact label={t('port')} value={String(status.port)} />
            <Fact label={t('tlsUrl')} value={status.tlsUrl ?? t('tlsOff')} copy={status.tlsUrl !== null} />
            <Fact label={t('dataFolder')} value={status.dataDir} copy />
            <Fact label={t('secretsKept')} value={serverText(status.secrets.description)} />
            <Fact
              label={t('nextScan')}
              value={
                status.nextScanAt === null
                  ? t('scanStopped')
                  : `${formatRelative(language, status.nextScanAt, now)} (${formatTime(language, status.nextScanAt)})`
              }
            />
            <Fact label={t('version')} value={status.version} />
            <Fact label={t('startedAt')} value={formatTime(language, status.startedAt)} />
          </dl>
        ) : (
          !error && <p className="muted">{t('loading')}</p>
        )}
      </Panel>
      {status && <UsageDashboard />}
      {status && <QuickStart baseUrl={status.url} />}
    </div>
  );
}

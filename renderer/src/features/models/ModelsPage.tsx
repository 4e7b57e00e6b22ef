// Models: every model the gateway answers for, with a copyable id, what it does, its price and where it is served; the alias editor below.
import { useEffect, useState } from 'react';
import type { ModelServer } from '../../../../shared/models.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { Button, CopyButton, EmptyState, ErrorNote, Panel } from '../../components/ui.tsx';
import { AliasesPanel } from './AliasesPanel.tsx';
import { priceText } from './price.ts';

function ServedBy(props: { servers: ModelServer[] }) {
  const t = useT();
  return (
    <>
      {props.servers.map((server) =>
        server.kind === 'simulator' ? (
          <span key="sim" className="badge">
            {t('servedBySimulator')}
          </span>
        ) : (
          <span key={server.channel} className="badge">
            {t('servedByChannel', { channel: server.channel, upstream: server.upstream })}
          </span>
        ),
      )}
    </>
  );
}

export function ModelsPage() {
  const t = useT();
  const serverText = useServerText();
  const { models: store } = useStores();
  const models = store((state) => state.models);
  const loading = store((state) => state.loading);
  const error = store((state) => state.error);
  const [query, setQuery] = useState('');
  useEffect(() => {
    void store.getState().load();
  }, [store]);
  const needle = query.trim().toLowerCase();
  const shown = (models ?? []).filter(
    (model) =>
      needle === '' ||
      model.id.toLowerCase().includes(needle) ||
      model.capability.toLowerCase().includes(needle) ||
      serverText(model.capability).toLowerCase().includes(needle),
  );
  return (
    <div className="page models">
      <ErrorNote message={error} onRetry={() => void store.getState().load()} />
      <Panel
        title={t('modelsTitle')}
        actions={
          <>
            <input
              type="search"
              className="page-search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t('modelsSearchPlaceholder')}
              aria-label={t('modelsSearch')}
            />
            <Button busy={loading} onClick={() => void store.getState().load()}>
              {t('reload')}
            </Button>
          </>
        }
      >
        <p className="muted">{t('modelsHelp')}</p>
        {models === null ? (
          !error && <p className="muted">{t('loading')}</p>
        ) : shown.length === 0 ? (
          <EmptyState title={t('modelsNoneTitle')}>{t('modelsNoneBody')}</EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="table models-table">
              <thead>
                <tr>
                  <th scope="col">{t('modelId')}</th>
                  <th scope="col">{t('modelCapability')}</th>
                  <th scope="col">{t('modelPrice')}</th>
                  <th scope="col">{t('modelServedBy')}</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((model) => (
                  <tr key={model.id} data-testid="model-row">
                    <td>
                      <code>{model.id}</code> <CopyButton text={model.id} />
                      {model.aliasOf && <div className="muted">{t('modelAliasOf', { target: model.aliasOf })}</div>}
                    </td>
                    <td>
                      {serverText(model.capability)} {model.chat && <span className="badge">{t('modelChat')}</span>}
                    </td>
                    <td>{priceText(model.price, t)}</td>
                    <td>
                      <ServedBy servers={model.servedBy} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <AliasesPanel />
    </div>
  );
}

// The selected asset: resolved URL to copy, refresh error and failure reason in plain words, refresh now, next scan.
import { useServerText } from '../../i18n/server-texts.ts';
import { TERMINAL_STATUSES } from '../../../../shared/portrait.ts';
import { useStores } from '../../context.ts';
import { formatRelative, formatTime, useT } from '../../i18n/index.ts';
import { Button, CopyButton, EmptyState, ErrorNote, Panel, StatusBadge } from '../../components/ui.tsx';
import { useNow } from '../../components/use-now.ts';

export function AssetDetail() {
  const t = useT();
  const serverText = useServerText();
  const { assets, status, prefs } = useStores();
  const asset = assets((state) => state.detail);
  const refreshing = assets((state) => (asset ? state.refreshing.includes(asset.asset_id) : false));
  const refreshError = assets((state) => state.refreshError);
  const nextScanAt = status((state) => state.status?.nextScanAt ?? null);
  const language = prefs((state) => state.language);
  const now = useNow(1000);
  if (!asset) {
    return (
      <Panel title={t('assetDetail')} className="detail-panel">
        <EmptyState title={t('noSelectionTitle')}>{t('noSelectionBody')}</EmptyState>
      </Panel>
    );
  }
  const terminal = TERMINAL_STATUSES.includes(asset.status);
  return (
    <Panel title={t('assetDetail')} className="detail-panel">
      <div className="detail" data-testid="asset-detail">
        <h3>
          {asset.name || t('unnamed')} <StatusBadge status={asset.status} />
        </h3>
        <dl className="facts">
          <div className="fact">
            <dt>{t('assetId')}</dt>
            <dd>
              <code>{asset.asset_id}</code> <CopyButton text={asset.asset_id} />
            </dd>
          </div>
          <div className="fact">
            <dt>{t('assetUrl')}</dt>
            <dd>
              <code className="wrap">{asset.url}</code>
            </dd>
          </div>
          <div className="fact">
            <dt>{t('resolvedUrl')}</dt>
            <dd>
              {asset.resolved_url ? (
                <>
                  <code data-testid="resolved-url">{asset.resolved_url}</code> <CopyButton text={asset.resolved_url} />
                </>
              ) : (
                <span className="muted">{t('resolvedUrlPending')}</span>
              )}
            </dd>
          </div>
          <div className="fact">
            <dt>{t('updated')}</dt>
            <dd>{formatTime(language, Date.parse(asset.updated_at))}</dd>
          </div>
        </dl>
        {asset.failure_reason && (
          <div className="error-box" role="alert" data-testid="failure-reason">
            <strong>{t('failureReason')}:</strong> {serverText(asset.failure_reason)}. {t('failureAdvice')}
          </div>
        )}
        {asset.refresh_error && (
          <div className="warn-box" role="status" data-testid="refresh-error">
            <strong>{t('refreshError')}:</strong> {asset.refresh_error}. {t('refreshErrorAdvice')}
          </div>
        )}
        {terminal ? (
          <p className="muted">{t('terminalNote')}</p>
        ) : (
          <>
            <Button busy={refreshing} onClick={() => void assets.getState().refreshNow(asset.asset_id)}>
              {refreshing ? t('refreshing') : t('refreshNow')}
            </Button>
            <p className="muted" data-testid="next-scan">
              {nextScanAt === null ? t('scanStopped') : t('nextScanAt', { when: formatRelative(language, nextScanAt, now) })}
            </p>
          </>
        )}
        <ErrorNote message={refreshError} />
      </div>
    </Panel>
  );
}

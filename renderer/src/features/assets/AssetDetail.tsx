// The selected asset: resolved URL to copy, refresh error and failure reason in plain words, refresh now, next scan; register a failed one again, delete.
import { useServerText } from '../../i18n/server-texts.ts';
import { useState, type FormEvent } from 'react';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import { TERMINAL_STATUSES } from '../../../../shared/portrait.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useStores } from '../../context.ts';
import { formatRelative, formatTime, useT } from '../../i18n/index.ts';
import { Button, CopyButton, EmptyState, ErrorNote, Field, Panel, StatusBadge } from '../../components/ui.tsx';
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
        {asset.status === 'Failed' && <ReregisterForm key={asset.asset_id} assetId={asset.asset_id} url={asset.url} />}
        <DeleteAsset key={`delete-${asset.asset_id}`} assetId={asset.asset_id} name={asset.name || t('unnamed')} />
      </div>
    </Panel>
  );
}

/** Registers a failed asset again with a corrected URL (a new asset; the failed one is deleted). */
function ReregisterForm(props: { assetId: string; url: string }) {
  const t = useT();
  const { assets } = useStores();
  const [url, setUrl] = useState(props.url);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await assets.getState().reregister(props.assetId, url.trim());
    setBusy(false);
    if (!result.ok) setError(result);
  };
  return (
    <form className="reregister" onSubmit={(event) => void submit(event)} aria-label={t('reregister')}>
      <Field label={t('correctedUrl')} error={error?.param === 'url' ? error.message : null} hint={t('reregisterHint')}>
        <input value={url} maxLength={FIELD_LIMITS.url} onChange={(event) => setUrl(event.target.value)} />
      </Field>
      <ErrorNote message={error && error.param !== 'url' ? error.message : null} />
      <Button type="submit" kind="primary" busy={busy} disabled={url.trim() === '' || url.trim() === props.url}>
        {t('reregister')}
      </Button>
    </form>
  );
}

/** Deletes the asset from this gateway, after a confirmation. */
function DeleteAsset(props: { assetId: string; name: string }) {
  const t = useT();
  const { assets } = useStores();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    const refusal = await assets.getState().deleteAsset(props.assetId);
    setBusy(false);
    if (refusal) setError(refusal);
  };
  return (
    <div className="row danger-zone">
      <Button kind="danger" onClick={() => setConfirming(true)}>
        {t('deleteAsset')}
      </Button>
      {confirming && (
        <ConfirmDialog
          title={t('deleteAssetTitle', { name: props.name })}
          confirmLabel={t('delete')}
          busy={busy}
          error={error}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        >
          {t('deleteAssetBody')}
        </ConfirmDialog>
      )}
    </div>
  );
}

// One line on the Assets page about the background scan: assets still pending, when the last scan ran and how long it took, its last error.
import { useStores } from '../../context.ts';
import { formatTime, useT } from '../../i18n/index.ts';

export function ScanLine() {
  const t = useT();
  const { status, prefs } = useStores();
  const language = prefs((state) => state.language);
  const scan = status((state) => state.status?.lastScan ?? null);
  if (!scan) return <p className="muted small scan-line">{t('scanNever')}</p>;
  return (
    <p className="muted small scan-line" data-scan-line>
      {t('scanLine', {
        pending: scan.pending ?? '—',
        when: formatTime(language, scan.startedAt),
        seconds: ((scan.finishedAt - scan.startedAt) / 1000).toFixed(1),
      })}
      {scan.lastError && (
        <span className="warn-text" title={scan.lastError}>
          {' · '}
          {t('scanLastError', { error: scan.lastError.length > 120 ? `${scan.lastError.slice(0, 120)}…` : scan.lastError })}
        </span>
      )}
    </p>
  );
}

// Export of the calls the Logs table shows (this page, these filters) as a HAR or JSON download.
import { useState } from 'react';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, ErrorNote } from '../../components/ui.tsx';
import { messageOf } from '../../stores/storage.ts';
import { downloadText, harOf, jsonOf } from './journal-export.ts';

export function LogExport() {
  const t = useT();
  const { journal, connection, status } = useStores();
  const baseUrl = connection((state) => state.connection?.gatewayUrl ?? '');
  const version = status((state) => state.status?.version ?? '');
  const [busy, setBusy] = useState<'har' | 'json' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (kind: 'har' | 'json') => {
    setBusy(kind);
    setError(null);
    try {
      const entries = await journal.getState().shownEntries();
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      if (kind === 'har') downloadText(`gatehouse-calls-${stamp}.har`, harOf(entries, baseUrl, version), 'application/json');
      else downloadText(`gatehouse-calls-${stamp}.json`, jsonOf(entries), 'application/json');
    } catch (reason) {
      setError(messageOf(reason));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="row log-export">
      <span className="muted small">{t('logExportShown')}</span>
      <Button busy={busy === 'har'} disabled={busy !== null} onClick={() => void run('har')}>
        {t('logExportHar')}
      </Button>
      <Button busy={busy === 'json'} disabled={busy !== null} onClick={() => void run('json')}>
        {t('logExportJson')}
      </Button>
      <ErrorNote message={error} />
    </div>
  );
}

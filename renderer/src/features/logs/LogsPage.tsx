// Logs page: the request journal — every API call the gateway answered, filterable, live, with bodies and stream timing.
import { useEffect } from 'react';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { LogDetail } from './LogDetail.tsx';
import { LogTable } from './LogTable.tsx';

export function LogsPage() {
  const t = useT();
  const { journal, status } = useStores();
  const recording = status((state) => state.status?.journal ?? true);
  useEffect(() => {
    if (!journal.getState().page) void journal.getState().load(1);
  }, [journal]);
  return (
    <div className="page logs-page">
      <div className="stack">
        {!recording && (
          <div className="warn-box" role="status" data-testid="journal-off">
            {t('logJournalOff')}
          </div>
        )}
        <LogTable />
      </div>
      <LogDetail />
    </div>
  );
}

// The journal's newest-first table: one row per API call, live as calls arrive, paged, with a note of calls not yet shown.
import type { JournalSummary } from '../../../../shared/journal.ts';
import { formatMoney } from '../../../../shared/money.ts';
import { useStores } from '../../context.ts';
import { formatClock, formatTime, useT } from '../../i18n/index.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { Button, EmptyState, ErrorNote, Pager, Panel, Progress } from '../../components/ui.tsx';
import { answerSourceOf } from './answer-source.ts';
import { AnswerSource } from './AnswerSource.tsx';
import { LogExport } from './LogExport.tsx';
import { LogFilters } from './LogFilters.tsx';

/** An HTTP status as a coloured badge. */
export function HttpStatus(props: { status: number }) {
  return <span className={`badge ${props.status >= 400 ? 'http-error' : 'http-ok'}`}>{props.status}</span>;
}

/** Token name, billed tokens and cost, and a stream's time to first output: one line under the request. */
function CallFigures(props: { entry: JournalSummary }) {
  const t = useT();
  const { entry } = props;
  const parts: string[] = [];
  if (entry.token) parts.push(t('logTokenName', { name: entry.token }));
  if (entry.usage) {
    parts.push(t('logTokens', { input: entry.usage.inputTokens, output: entry.usage.outputTokens }));
    parts.push(t('logCost', { cost: formatMoney(entry.usage.cost) }));
  }
  if (entry.stream && entry.firstOutputMs !== null && entry.firstOutputMs !== undefined)
    parts.push(t('logFirstOutput', { seconds: (entry.firstOutputMs / 1000).toFixed(3) }));
  if (parts.length === 0) return null;
  return (
    <div className="small muted call-facts" data-testid="call-figures">
      {parts.join(' · ')}
    </div>
  );
}

function LogRow(props: { entry: JournalSummary; selected: boolean }) {
  const t = useT();
  const serverText = useServerText();
  const { journal, prefs } = useStores();
  const language = prefs((state) => state.language);
  const { entry } = props;
  const open = () => void journal.getState().open(entry.id);
  const source = answerSourceOf(entry, false);
  return (
    <tr data-entry-id={entry.id} className={props.selected ? 'selected' : undefined} aria-selected={props.selected} onClick={open}>
      <td title={formatTime(language, entry.at)}>{formatClock(language, entry.at)}</td>
      <td className="request">
        <button
          className="linkish mono"
          onClick={(event) => {
            // The row opens it too: one request per click.
            event.stopPropagation();
            open();
          }}
        >
          {entry.method} {entry.path}
        </button>
        {/* Family, model and account under the request, so the row fits 800 px and a detail panel beside it at 1280 px. */}
        <div className="small muted call-facts">
          <span title={t('logProtocol')}>{t(`protocol_${entry.protocol}`)}</span> · <span title={t('logModel')}>{entry.model ?? '—'}</span>
          {' · '}
          <span title={t('account')}>{entry.account ?? '—'}</span>
          {source && (
            <>
              {' · '}
              <AnswerSource source={source} />
            </>
          )}
          {entry.test_id && (
            <>
              {' · '}
              <span>{t('logRowTestId', { id: entry.test_id })}</span>
            </>
          )}
        </div>
        <CallFigures entry={entry} />
        {entry.error && <div className="small err-text">{serverText(entry.error)}</div>}
      </td>
      <td>
        <HttpStatus status={entry.status} />
      </td>
      <td className="num">
        {entry.durationMs} ms
        {entry.stream && (
          <div>
            <span className="badge stream-badge">{t('logStream')}</span>
          </div>
        )}
      </td>
    </tr>
  );
}

export function LogTable() {
  const t = useT();
  const { journal, navigation, status } = useStores();
  const recording = status((state) => state.status?.journal ?? true);
  const page = journal((state) => state.page);
  const loading = journal((state) => state.loading);
  const error = journal((state) => state.error);
  const unseen = journal((state) => state.unseen);
  const selectedId = journal((state) => state.detailId);
  const filtered = journal((state) => Object.values(state.filter).some((value) => value !== ''));
  return (
    <Panel title={t('logCalls')} actions={<LogFilters />}>
      <ErrorNote message={error} onRetry={() => void journal.getState().load()} />
      {loading && <Progress label={t('loading')} />}
      {unseen > 0 && (
        <div className="notice" role="status">
          <p>{t('logUnseen', { count: unseen })}</p>
          <Button onClick={() => void journal.getState().load(1)}>{t('logShowNewest')}</Button>
        </div>
      )}
      {page && page.total === 0 && (
        <EmptyState
          title={filtered ? t('noMatchTitle') : t('logEmptyTitle')}
          action={
            filtered || !recording ? undefined : (
              <Button onClick={() => navigation.getState().go('playground')}>{t('openPlayground')}</Button>
            )
          }
        >
          {filtered ? t('logNoMatchBody') : recording ? t('logEmptyBody') : t('logEmptyOffBody')}
        </EmptyState>
      )}
      {page && page.items.length > 0 && <LogExport />}
      {page && page.items.length > 0 && (
        <div className="table-scroll">
          <table className="table log-table" aria-label={t('logCalls')}>
            <thead>
              <tr>
                <th>{t('logTime')}</th>
                <th>{t('logRequestFacts')}</th>
                <th>{t('status')}</th>
                <th>{t('logDuration')}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((entry) => (
                <LogRow key={entry.id} entry={entry} selected={entry.id === selectedId} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && page.unauthenticated_calls > 0 && <p className="muted">{t('logUnauthenticated', { count: page.unauthenticated_calls })}</p>}
      {page && (
        <Pager
          page={page.page}
          pageSize={page.page_size}
          total={page.total}
          busy={loading}
          onPage={(next) => void journal.getState().load(next)}
        />
      )}
    </Panel>
  );
}

// One recorded call in full: summary, error, stream timing, request and response side by side as tabs, and its replay as curl.
import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '../../../../shared/money.ts';
import { useStores } from '../../context.ts';
import { formatTime, useT } from '../../i18n/index.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { Button, CopyButton, EmptyState, ErrorNote, Fact, Panel, Progress, Tabs } from '../../components/ui.tsx';
import { answerSourceOf } from './answer-source.ts';
import { AnswerSource } from './AnswerSource.tsx';
import { ExchangeSide } from './ExchangeSide.tsx';
import { journalCurl, replayProblem } from './journal-view.ts';
import { HttpStatus } from './LogTable.tsx';
import { RelayNote } from './RelayNote.tsx';
import { StreamText } from './StreamText.tsx';
import { StreamTimeline } from './StreamTimeline.tsx';

const SIDES = ['request', 'response'] as const;

export function LogDetail() {
  const t = useT();
  const { journal, prefs, connection } = useStores();
  const detailId = journal((state) => state.detailId);
  const entry = journal((state) => state.detail);
  const loading = journal((state) => state.detailLoading);
  const error = journal((state) => state.detailError);
  const language = prefs((state) => state.language);
  const baseUrl = connection((state) => state.connection?.gatewayUrl ?? '');
  const [side, setSide] = useState<(typeof SIDES)[number]>('response');
  const panel = useRef<HTMLDivElement>(null);
  const loaded = entry !== null;
  // An opened call is brought into view once it has loaded (below the table in one column): its top at the window's top, so
  // the details show, not only the heading a still-empty panel had.
  useEffect(() => {
    const box = panel.current?.getBoundingClientRect();
    if (detailId !== null && loaded && box && (box.top < 0 || box.bottom > window.innerHeight))
      panel.current?.scrollIntoView({ block: 'start' });
  }, [detailId, loaded]);
  // Escape closes an opened call.
  useEffect(() => {
    if (detailId === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') journal.getState().close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [detailId, journal]);
  if (detailId === null) {
    return (
      <Panel title={t('logEntry')} className="detail-panel">
        <EmptyState title={t('logNoSelectionTitle')}>{t('logNoSelectionBody')}</EmptyState>
      </Panel>
    );
  }
  const problem = entry && replayProblem(entry);
  const source = entry && answerSourceOf(entry, true);
  return (
    <div ref={panel} className="detail-anchor">
      <Panel
        title={t('logEntry')}
        className="detail-panel"
        actions={
          <>
            {entry && !problem && <CopyButton text={journalCurl(entry, baseUrl)} label={t('copyAsCurl')} />}
            <Button onClick={() => journal.getState().close()}>{t('close')}</Button>
          </>
        }
      >
        {loading && <Progress label={t('loading')} />}
        <ErrorNote message={error} onRetry={() => void journal.getState().open(detailId)} />
        {entry && (
          <div className="detail" data-testid="log-detail">
            <h3 className="mono">
              {entry.method} {entry.path} <HttpStatus status={entry.status} />
            </h3>
            <dl className="facts">
              <Fact label={t('logTime')}>{formatTime(language, entry.at)}</Fact>
              <Fact label={t('logProtocol')}>{t(`protocol_${entry.protocol}`)}</Fact>
              <Fact label={t('logModel')}>{entry.model ?? '—'}</Fact>
              <Fact label={t('account')}>{entry.account ?? t('logNoAccount')}</Fact>
              <Fact label={t('logToken')} testId="log-token">
                {entry.token ?? '—'}
              </Fact>
              <Fact label={t('logDuration')}>{entry.durationMs} ms</Fact>
              {source && (
                <Fact label={t('logSource')} testId="log-source">
                  <AnswerSource source={source} />
                </Fact>
              )}
              {entry.test_id && (
                <Fact label={t('logTestId')} testId="log-test-id">
                  <code>{entry.test_id}</code>
                </Fact>
              )}
              {entry.request_id && (
                <Fact label={t('logRequestId')} testId="log-request-id">
                  <code>{entry.request_id}</code>
                </Fact>
              )}
              {entry.usage && (
                <Fact label={t('logUsage')} testId="log-usage">
                  {t('logTokens', { input: entry.usage.inputTokens, output: entry.usage.outputTokens })} ·{' '}
                  {t('logCost', { cost: formatMoney(entry.usage.cost) })}
                </Fact>
              )}
              {entry.notes && entry.notes.length > 0 && (
                <Fact label={t('logNotes')} testId="log-notes">
                  {entry.notes.join(' ')}
                </Fact>
              )}
              {entry.stream && entry.firstOutputMs !== null && entry.firstOutputMs !== undefined && (
                <Fact label={t('logFirstOutputLabel')}>{entry.firstOutputMs} ms</Fact>
              )}
            </dl>
            {entry.error && <CallError error={entry.error} />}
            {entry.relay && <RelayNote relay={entry.relay} />}
            {entry.timing && <StreamTimeline timing={entry.timing} durationMs={entry.durationMs} />}
            <StreamText entry={entry} />
            <p className="muted small">
              {problem ? t(problem === 'binary' ? 'logNoReplayBinary' : 'logNoReplayTruncated') : t('logReplayHint')}
            </p>
            <Tabs
              items={SIDES}
              active={side}
              onSelect={setSide}
              labelOf={(item) => t(item === 'request' ? 'logRequest' : 'logResponse')}
              label={t('logExchange')}
              idsOf={(item) => ({ tab: `log-tab-${item}`, panel: `log-panel-${item}` })}
            />
            {side === 'request' ? (
              <ExchangeSide
                id="log-panel-request"
                tabId="log-tab-request"
                testId="log-request"
                query={entry.query}
                headers={entry.requestHeaders}
                body={entry.request}
              />
            ) : (
              <ExchangeSide
                id="log-panel-response"
                tabId="log-tab-response"
                testId="log-response"
                headers={entry.responseHeaders}
                body={entry.response}
              />
            )}
          </div>
        )}
      </Panel>
    </div>
  );
}

/** The error the call was answered with, in the console's language; beside it the caller's own text when that differs. */
function CallError(props: { error: string }) {
  const t = useT();
  const serverText = useServerText();
  const shown = serverText(props.error);
  return (
    <div className="error-box" role="alert" data-testid="log-error">
      {shown}
      {shown !== props.error && <div className="muted small">{t('logErrorAsSent', { error: props.error })}</div>}
    </div>
  );
}

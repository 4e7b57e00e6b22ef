// The usage dashboard of the overview: requests, tokens and spend per day, by model, token and account; latency percentiles and errors.
import { useEffect } from 'react';
import { LATENCY_BOUNDS_MS, USAGE_RANGES, type UsageRow, type UsageStats } from '../../../../shared/usage-stats.ts';
import { BarChart } from '../../components/BarChart.tsx';
import { formatMoney } from '../../../../shared/money.ts';
import { Button, ErrorNote, Fact, Panel, Tabs } from '../../components/ui.tsx';
import { useStores } from '../../context.ts';
import { formatCount, useT } from '../../i18n/index.ts';

function useCount() {
  const language = useStores().prefs((state) => state.language);
  return (value: number) => formatCount(language, value);
}

function Breakdown(props: { title: string; rows: UsageRow[]; testId: string }) {
  const t = useT();
  const count = useCount();
  const top = Math.max(...props.rows.map((row) => row.spend), 0);
  return (
    <div className="breakdown">
      <h3>{props.title}</h3>
      {props.rows.length === 0 ? (
        <p className="muted">{t('usageNoCalls')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid={props.testId}>
            <thead>
              <tr>
                <th scope="col">{t('usageName')}</th>
                <th scope="col">{t('usageRequests')}</th>
                <th scope="col">{t('usageErrors')}</th>
                <th scope="col">{t('usageTokens')}</th>
                <th scope="col">{t('usageSpend')}</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.key}>
                  <td>
                    <code title={row.label}>{row.label || t('usageNoModel')}</code>
                  </td>
                  <td>{count(row.calls)}</td>
                  <td className={row.errors > 0 ? 'danger-text' : undefined}>{count(row.errors)}</td>
                  <td>{count(row.inputTokens + row.outputTokens)}</td>
                  <td>
                    <span
                      className="spend-bar"
                      style={{ width: `${top === 0 ? 0 : Math.round((row.spend / top) * 60)}px` }}
                      aria-hidden="true"
                    />
                    {formatMoney(row.spend)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Charts(props: { stats: UsageStats }) {
  const t = useT();
  const count = useCount();
  const { days, latency } = props.stats;
  const labels = days.map((day) => day.day.slice(5));
  const ms = (bound: number | null) => (bound === null ? t('usageSlow', { ms: LATENCY_BOUNDS_MS.at(-1)! }) : `≤ ${count(bound)} ms`);
  return (
    <>
      <div className="chart-grid">
        <div>
          <h3>{t('usageRequestsPerDay')}</h3>
          <BarChart
            testId="chart-requests"
            label={t('usageRequestsChart', { calls: count(props.stats.totals.calls), errors: count(props.stats.totals.errors) })}
            labels={labels}
            format={count}
            series={[
              { name: t('usageOk'), values: days.map((day) => day.calls - day.errors), className: 'bar-ok' },
              { name: t('usageErrors'), values: days.map((day) => day.errors), className: 'bar-error' },
            ]}
          />
        </div>
        <div>
          <h3>{t('usageTokensPerDay')}</h3>
          <BarChart
            label={t('usageTokensChart', { input: count(props.stats.totals.inputTokens), output: count(props.stats.totals.outputTokens) })}
            labels={labels}
            format={count}
            series={[
              { name: t('usageInput'), values: days.map((day) => day.inputTokens), className: 'bar-input' },
              { name: t('usageOutput'), values: days.map((day) => day.outputTokens), className: 'bar-output' },
            ]}
          />
        </div>
        <div>
          <h3>{t('usageSpendPerDay')}</h3>
          <BarChart
            label={t('usageSpendChart', { spend: formatMoney(props.stats.totals.spend) })}
            labels={labels}
            format={formatMoney}
            series={[{ name: t('usageSpend'), values: days.map((day) => day.spend), className: 'bar-spend' }]}
          />
        </div>
        <div>
          <h3>{t('usageLatency')}</h3>
          <BarChart
            label={t('usageLatencyChart', { p50: ms(latency.p50), p90: ms(latency.p90), p99: ms(latency.p99) })}
            labels={[...LATENCY_BOUNDS_MS.map((bound) => `${bound >= 1000 ? `${bound / 1000}s` : `${bound}ms`}`), '>']}
            format={count}
            series={[{ name: t('usageRequests'), values: latency.buckets, className: 'bar-ok' }]}
          />
        </div>
      </div>
      <dl className="facts">
        <Fact label={t('usageP50')} testId="latency-p50">
          {latency.p50 === null && props.stats.totals.calls === 0 ? '—' : ms(latency.p50)}
        </Fact>
        <Fact label={t('usageP90')}>{latency.p90 === null && props.stats.totals.calls === 0 ? '—' : ms(latency.p90)}</Fact>
        <Fact label={t('usageP99')}>{latency.p99 === null && props.stats.totals.calls === 0 ? '—' : ms(latency.p99)}</Fact>
      </dl>
    </>
  );
}

export function UsageDashboard() {
  const t = useT();
  const count = useCount();
  const { usage } = useStores();
  const days = usage((state) => state.days);
  const stats = usage((state) => state.stats);
  const loading = usage((state) => state.loading);
  const error = usage((state) => state.error);
  useEffect(() => {
    void usage.getState().load();
  }, [usage]);
  const totals = stats?.totals;
  return (
    <Panel
      title={t('usageTitle')}
      className="usage"
      actions={
        <>
          <Tabs
            items={USAGE_RANGES}
            active={days}
            onSelect={(range) => void usage.getState().load(range)}
            labelOf={(range) => t('usageDays', { days: range })}
            label={t('usageRange')}
          />
          <Button busy={loading} onClick={() => void usage.getState().load()}>
            {t('reload')}
          </Button>
        </>
      }
    >
      <ErrorNote message={error} onRetry={() => void usage.getState().load()} />
      {totals && stats ? (
        <>
          <dl className="facts usage-totals">
            <Fact label={t('usageRequests')} testId="usage-requests">
              {count(totals.calls)}
            </Fact>
            <Fact label={t('usageErrors')} testId="usage-errors">
              {totals.calls === 0 ? count(0) : `${count(totals.errors)} (${((totals.errors / totals.calls) * 100).toFixed(1)} %)`}
            </Fact>
            <Fact label={t('usageTokens')} testId="usage-tokens">
              {t('usageTokensInOut', { input: count(totals.inputTokens), output: count(totals.outputTokens) })}
            </Fact>
            <Fact label={t('usageSpend')} testId="usage-spend">
              {formatMoney(totals.spend)}
            </Fact>
          </dl>
          {totals.calls === 0 && <p className="muted">{t('usageEmpty')}</p>}
          <Charts stats={stats} />
          <div className="breakdowns">
            <Breakdown title={t('usageByModel')} rows={stats.byModel} testId="usage-by-model" />
            <Breakdown title={t('usageByToken')} rows={stats.byToken} testId="usage-by-token" />
            <Breakdown title={t('usageByAccount')} rows={stats.byAccount} testId="usage-by-account" />
          </div>
          <p className="muted">{t('usageNote')}</p>
        </>
      ) : (
        !error && <p className="muted">{t('loading')}</p>
      )}
    </Panel>
  );
}

// A stream's timing: first byte, writes, gaps and tail in figures, and each write as a tick along the call's duration.
import type { StreamTiming } from '../../../../shared/journal.ts';
import { useT } from '../../i18n/index.ts';
import { Fact } from '../../components/ui.tsx';
import { streamStats, timelineMarks } from './journal-view.ts';

export function StreamTimeline(props: { timing: StreamTiming; durationMs: number }) {
  const t = useT();
  const stats = streamStats(props.timing, props.durationMs);
  const marks = timelineMarks(props.timing, props.durationMs);
  return (
    <section className="stream-timing" data-testid="stream-timing" aria-label={t('logStreamTiming')}>
      <h4>{t('logStreamTiming')}</h4>
      <dl className="facts">
        <Fact label={t('logFirstByte')}>{stats.firstByteMs} ms</Fact>
        <Fact label={t('logChunks')} testId="stream-chunks">
          {stats.chunks}
        </Fact>
        <Fact label={t('logLongestGap')}>{stats.longestGapMs} ms</Fact>
        {stats.meanGapMs !== null && <Fact label={t('logMeanGap')}>{stats.meanGapMs.toFixed(1)} ms</Fact>}
        <Fact label={t('logTail')}>{stats.tailMs} ms</Fact>
      </dl>
      <div className="timeline" role="img" aria-label={t('logTimelineLabel', { chunks: stats.chunks, duration: props.durationMs })}>
        {marks.map((mark, index) => (
          <span key={index} className="tick" style={{ left: `${(mark * 100).toFixed(2)}%` }} />
        ))}
      </div>
      <div className="timeline-scale small muted">
        <span>0 ms</span>
        <span>{props.durationMs} ms</span>
      </div>
      {stats.untracked > 0 && <p className="small muted">{t('logUntracked', { count: stats.untracked })}</p>}
      {props.timing.cut && (
        <div className="warn-box" role="status">
          {t('logStreamCut')}
        </div>
      )}
    </section>
  );
}

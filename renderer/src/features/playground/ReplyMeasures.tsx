// The line under a playground reply: its output tokens, tokens per second and latency.
import type { ReplyStats } from '../../api/reply-stats.ts';
import { useT } from '../../i18n/index.ts';

export function ReplyMeasures(props: { stats: ReplyStats }) {
  const t = useT();
  const { tokens, tokensPerSecond, latencyMs } = props.stats;
  return (
    <p className="muted small reply-stats" data-testid="reply-stats" aria-label={t('replyStatsLabel')}>
      {t('replyStats', {
        tokens: tokens ?? '—',
        rate: tokensPerSecond === null ? '—' : tokensPerSecond.toFixed(1),
        latency: latencyMs,
      })}
    </p>
  );
}

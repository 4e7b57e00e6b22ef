// How a relayed call went: the channel that answered and the model it was sent, then one line per try on a channel.
import type { JournalRelay } from '../../../../shared/journal.ts';
import { useT } from '../../i18n/index.ts';

export function RelayNote(props: { relay: JournalRelay }) {
  const t = useT();
  const { relay } = props;
  return (
    <section className="relay-note" data-testid="log-relay" aria-label={t('logRelay')}>
      <h4>{t('logRelay')}</h4>
      <p>
        {relay.channel !== null ? t('logRelayedTo', { channel: relay.channel, model: relay.upstreamModel ?? '—' }) : t('logRelayNoChannel')}
      </p>
      <ol className="small mono" data-testid="log-relay-attempts">
        {relay.attempts.map((attempt, index) => (
          <li key={index}>
            {t(attempt.status !== null ? 'logRelayAttemptStatus' : 'logRelayAttemptError', {
              channel: attempt.channel,
              status: attempt.status ?? '',
              error: attempt.error ?? '',
              ms: attempt.ms,
            })}
          </li>
        ))}
      </ol>
    </section>
  );
}

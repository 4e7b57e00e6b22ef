// The Channels page's test parts: Test all, the response-time cell, a test's outcome (with the answer's first words) and Fetch models.
import type { ChannelSummary } from '../../../../shared/channels.ts';
import { isServiceKind } from '../../../../shared/channels.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button } from '../../components/ui.tsx';

/** Tests every channel at once. */
export function TestAllButton() {
  const t = useT();
  const { channels } = useStores();
  const running = channels((state) => state.testingAll);
  const any = channels((state) => (state.channels?.length ?? 0) > 0);
  return (
    <Button busy={running} disabled={!any} onClick={() => void channels.getState().testAll()}>
      {t('testAllChannels')}
    </Button>
  );
}

/** The response time of a channel's last test in this session, else of its last relayed call; a dash when neither. */
export function ResponseTime(props: { channel: ChannelSummary }) {
  const t = useT();
  const tested = useStores().channels((state) => state.tests[props.channel.id]);
  if (tested)
    return (
      <span className={tested.ok ? 'test-ok' : 'test-failed'} data-response-time>
        {tested.ok ? t('responseTimeMs', { ms: tested.latency_ms }) : t('responseTimeFailed')}
      </span>
    );
  const last = props.channel.health.last_latency_ms;
  return <span className="muted">{last === null ? '—' : t('responseTimeMs', { ms: last })}</span>;
}

/** The last test's outcome: ok with its latency, the model and the answer's first words; or why it failed. */
export function TestOutcome(props: { channelId: string }) {
  const t = useT();
  const tested = useStores().channels((state) => state.tests[props.channelId]);
  if (!tested) return null;
  return (
    <div className={tested.ok ? 'test-ok small' : 'test-failed small'} role="status">
      {tested.ok ? t('testOk', { ms: tested.latency_ms }) : t('testFailed', { message: tested.message })}
      {tested.ok && tested.model && (
        <div className="muted">{t('testAnswer', { model: tested.model, answer: tested.answer || t('testNoText') })}</div>
      )}
    </div>
  );
}

/** Reads the upstream's model list into the channel's models (chat channels). */
export function FetchModelsButton(props: { channel: ChannelSummary }) {
  const t = useT();
  const { channels } = useStores();
  const busy = channels((state) => state.busy.includes(props.channel.id));
  if (isServiceKind(props.channel.kind)) return null;
  return (
    <Button busy={busy} onClick={() => void channels.getState().fetchModels(props.channel.id)}>
      {t('fetchModels')}
    </Button>
  );
}

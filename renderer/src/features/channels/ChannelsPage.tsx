// Channels: the relay upstreams with their health (last error, latency, cooldown), add and edit, enable or disable, test, remove.
import { useEffect, useState } from 'react';
import type { ChannelSummary } from '../../../../shared/channels.ts';
import { useStores } from '../../context.ts';
import { formatTime, useT } from '../../i18n/index.ts';
import { Button, EmptyState, ErrorNote, Panel, Progress } from '../../components/ui.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import type { ChannelPreset } from '../../../../shared/channel-presets.ts';
import { ChannelForm } from './ChannelForm.tsx';
import { FetchModelsButton, ResponseTime, TestAllButton, TestOutcome } from './ChannelTests.tsx';

function Health(props: { channel: ChannelSummary }) {
  const t = useT();
  const language = useStores().prefs((state) => state.language);
  const { health } = props.channel;
  let text: string;
  let tone: string;
  if (health.cooldown_until !== null) {
    text = t('health_cooling', { time: formatTime(language, health.cooldown_until) });
    tone = 'health-cooling';
  } else if (health.consecutive_failures > 0) {
    text = t('health_failing', { count: health.consecutive_failures });
    tone = 'health-failing';
  } else if (health.last_ok_at !== null) {
    text = t('health_ok', { ms: health.last_latency_ms ?? 0 });
    tone = 'health-ok';
  } else {
    text = t('health_unused');
    tone = '';
  }
  return (
    <>
      <span className={`badge ${tone}`}>{text}</span>
      {health.last_error && <div className="muted small">{t('lastError', { error: health.last_error })}</div>}
    </>
  );
}

function ChannelRow(props: { channel: ChannelSummary; onEdit: () => void }) {
  const t = useT();
  const { channels } = useStores();
  const { channel } = props;
  const busy = channels((state) => state.busy.includes(channel.id));
  return (
    <tr data-channel-id={channel.id}>
      <td data-label={t('name')}>
        <strong>{channel.name}</strong>
        <div className="muted small">
          {channel.kind} · {channel.enabled ? t('channelEnabled') : t('channelDisabled')}
          {channel.reviewer && <span className="badge reviewer-badge"> · {t('channelIsReviewer')}</span>}
        </div>
      </td>
      <td data-label={t('channelBaseUrl')}>
        <code title={channel.base_url}>{channel.base_url}</code>
        <div className="muted small">{channel.models}</div>
      </td>
      <td data-label={`${t('channelPriority')} / ${t('channelWeight')}`}>
        {channel.priority} / {channel.weight}
      </td>
      <td data-label={t('channelKey')}>
        {channel.key_hint === null ? <span className="muted">{t('channelKeyNone')}</span> : <code>{channel.key_hint}</code>}
      </td>
      <td data-label={t('channelHealth')}>
        <Health channel={channel} />
        <TestOutcome channelId={channel.id} />
      </td>
      <td data-label={t('channelResponseTime')}>
        <ResponseTime channel={channel} />
      </td>
      <td className="actions">
        <Button busy={busy} onClick={() => void channels.getState().test(channel.id)}>
          {t('testChannel')}
        </Button>
        <FetchModelsButton channel={channel} />
        <Button onClick={props.onEdit}>{t('edit')}</Button>
        <Button busy={busy} onClick={() => void channels.getState().setEnabled(channel.id, !channel.enabled)}>
          {channel.enabled ? t('disable') : t('enable')}
        </Button>
        <ConfirmButton busy={busy} confirm={t('confirmRemoveChannel')} onConfirm={() => channels.getState().remove(channel.id)}>
          {t('removeChannel')}
        </ConfirmButton>
      </td>
    </tr>
  );
}

export function ChannelsPage() {
  const t = useT();
  const { channels } = useStores();
  const list = channels((state) => state.channels);
  const loading = channels((state) => state.loading);
  const error = channels((state) => state.error);
  const actionError = channels((state) => state.actionError);
  const [editing, setEditing] = useState<ChannelSummary | null>(null);
  const [preset, setPreset] = useState<ChannelPreset | null>(null);
  // A new form after every save or cancel: the add form starts empty again.
  const [round, setRound] = useState(0);
  useEffect(() => {
    void channels.getState().load();
  }, [channels]);
  return (
    <div className="page channels-page">
      <ChannelForm
        key={`${editing?.id ?? preset?.id ?? 'new'}-${round}`}
        editing={editing}
        preset={preset}
        onPreset={setPreset}
        onDone={() => {
          setEditing(null);
          setPreset(null);
          setRound((value) => value + 1);
        }}
      />
      <Panel title={t('navChannels')} actions={<TestAllButton />}>
        <p className="muted small">{t('channelsHelp')}</p>
        <ErrorNote message={error} onRetry={() => void channels.getState().load()} />
        <ErrorNote message={actionError} />
        {loading && !list && <Progress label={t('loading')} />}
        {list && list.length === 0 && <EmptyState title={t('noChannelsTitle')}>{t('noChannelsBody')}</EmptyState>}
        {list && list.length > 0 && (
          <div className="table-scroll">
            <table className="table channels-table" aria-label={t('navChannels')}>
              <thead>
                <tr>
                  <th>{t('name')}</th>
                  <th>{t('channelBaseUrl')}</th>
                  <th>
                    {t('channelPriority')} / {t('channelWeight')}
                  </th>
                  <th>{t('channelKey')}</th>
                  <th>{t('channelHealth')}</th>
                  <th>{t('channelResponseTime')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.map((channel) => (
                  <ChannelRow key={channel.id} channel={channel} onEdit={() => setEditing(channel)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}

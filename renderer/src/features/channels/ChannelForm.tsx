// Adds or edits a channel: every field with its rule, extra headers one per line, and a write-only key (only its hint is ever shown).
import { useState, type FormEvent } from 'react';
import {
  CHANNEL_APIS,
  CHANNEL_COMPATS,
  CHANNEL_DEFAULTS,
  compatOfChannel,
  CHANNEL_KINDS,
  type ChannelApiName,
  type ChannelCompatName,
  type ChannelInput,
  type ChannelKindName,
  type ChannelSummary,
} from '../../../../shared/channels.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { Button, ErrorNote, Field, Panel } from '../../components/ui.tsx';
import { PRESET_PLACEHOLDER, type ChannelPreset } from '../../../../shared/channel-presets.ts';
import { PresetPicker } from './PresetPicker.tsx';
import { NoSecretsNotice } from './NoSecretsNotice.tsx';

const FIELDS = [
  'name',
  'kind',
  'base_url',
  'models',
  'priority',
  'weight',
  'timeout_ms',
  'idle_timeout_ms',
  'deadline_ms',
  'api',
  'compat',
  'headers',
  'key',
  'region',
  'project',
];

/** `Name: value` lines into headers; undefined when a line has no name before its colon. */
function headersOf(text: string): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * The form; `editing` is the channel being changed, or null to add one, starting from `preset` when one is picked
 * (`onPreset`: another is picked; the page remounts the form with it). `onDone` runs after a save or a cancel.
 */
export function ChannelForm(props: {
  editing: ChannelSummary | null;
  preset?: ChannelPreset | null;
  onPreset?: (preset: ChannelPreset | null) => void;
  onDone: () => void;
}) {
  const t = useT();
  const serverText = useServerText();
  const { channels, status } = useStores();
  const secrets = status((state) => state.status?.secrets);
  const { editing } = props;
  const preset = editing ? null : (props.preset ?? null);
  const [name, setName] = useState(editing?.name ?? preset?.id ?? '');
  const [kind, setKind] = useState<ChannelKindName>(editing?.kind ?? preset?.kind ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(editing?.base_url ?? preset?.baseUrl ?? '');
  const [models, setModels] = useState(editing?.models ?? (preset?.models.join(', ') || CHANNEL_DEFAULTS.models));
  const [priority, setPriority] = useState(String(editing?.priority ?? CHANNEL_DEFAULTS.priority));
  const [weight, setWeight] = useState(String(editing?.weight ?? CHANNEL_DEFAULTS.weight));
  const [timeout, setTimeoutMs] = useState(String(editing?.timeout_ms ?? CHANNEL_DEFAULTS.timeoutMs));
  const [idleTimeout, setIdleTimeoutMs] = useState(String(editing?.idle_timeout_ms ?? CHANNEL_DEFAULTS.idleTimeoutMs));
  const [deadline, setDeadlineMs] = useState(String(editing?.deadline_ms ?? CHANNEL_DEFAULTS.deadlineMs));
  const [api, setApi] = useState<ChannelApiName>(editing?.api ?? 'chat');
  const [compat, setCompat] = useState<ChannelCompatName | 'auto'>(editing?.compat ?? preset?.compat ?? 'auto');
  const [headers, setHeaders] = useState(
    Object.entries(editing?.headers ?? {})
      .map(([header, value]) => `${header}: ${value}`)
      .join('\n'),
  );
  const [region, setRegion] = useState(editing?.region ?? '');
  const [project, setProject] = useState(editing?.project ?? '');
  const [key, setKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (PRESET_PLACEHOLDER.test(baseUrl)) {
      setError({ message: t('presetReplaceUrl'), param: 'base_url' });
      return;
    }
    const parsedHeaders = headersOf(headers);
    if (!parsedHeaders) {
      setError({ message: t('headersInvalid'), param: 'headers' });
      return;
    }
    const body: ChannelInput = {
      name: name.trim(),
      kind,
      base_url: baseUrl.trim(),
      models,
      priority: Number(priority),
      weight: Number(weight),
      timeout_ms: Number(timeout),
      idle_timeout_ms: Number(idleTimeout),
      deadline_ms: Number(deadline),
      ...(kind === 'openai' && { api, compat }),
      headers: parsedHeaders,
      ...(kind === 'volcengine' && { region: region.trim(), project: project.trim() }),
      ...(key.trim() !== '' ? { key: key.trim() } : removeKey ? { key: null } : {}),
    };
    setBusy(true);
    const result = await channels.getState().save(editing?.id ?? null, body);
    setBusy(false);
    if (result.ok) {
      setKey('');
      setError(null);
      props.onDone();
    } else setError(result);
  };
  const errorFor = (field: string) => (error?.param === field ? error.message : null);
  const title = editing ? t('editChannel', { name: editing.name }) : t('addChannel');
  return (
    <Panel title={title}>
      <form className="channel-form" onSubmit={(event) => void submit(event)} aria-label={title}>
        <NoSecretsNotice />
        <Field label={t('name')} error={errorFor('name')}>
          <input
            value={name}
            maxLength={64}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('example', { value: 'openai' })}
            required
          />
        </Field>
        {!editing && props.onPreset && <PresetPicker preset={preset} onChange={props.onPreset} />}
        <Field label={t('channelKind')} error={errorFor('kind')}>
          <select value={kind} onChange={(event) => setKind(event.target.value as ChannelKindName)}>
            {CHANNEL_KINDS.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </select>
        </Field>
        {kind === 'openai' && (
          <Field label={t('channelApi')} error={errorFor('api')} hint={t('channelApiHint')}>
            <select value={api} onChange={(event) => setApi(event.target.value as ChannelApiName)}>
              {CHANNEL_APIS.map((item) => (
                <option key={item} value={item}>
                  {t(item === 'chat' ? 'channelApiChat' : 'channelApiResponses')}
                </option>
              ))}
            </select>
          </Field>
        )}
        {kind === 'openai' && (
          <Field label={t('channelCompat')} error={errorFor('compat')} hint={t('channelCompatHint')}>
            <select value={compat} onChange={(event) => setCompat(event.target.value as ChannelCompatName | 'auto')}>
              <option value="auto">{t('channelCompatAuto', { profile: compatOfChannel(baseUrl.trim(), null) })}</option>
              {CHANNEL_COMPATS.map((item) => (
                <option key={item} value={item}>
                  {t(item === 'openai' ? 'channelCompatOpenai' : 'channelCompatCompatible')}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label={t('channelBaseUrl')} error={errorFor('base_url')} hint={t('channelBaseUrlHint')}>
          <input
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
            placeholder={t('example', { value: 'https://api.openai.com/v1' })}
            required
          />
        </Field>
        <Field label={t('channelModels')} error={errorFor('models')} hint={t('channelModelsHint')}>
          <input
            value={models}
            onChange={(event) => setModels(event.target.value)}
            placeholder={t('example', { value: 'gpt-4o, fast=gpt-4o-mini' })}
          />
        </Field>
        <div className="row">
          <Field label={t('channelPriority')} error={errorFor('priority')} hint={t('channelPriorityHint')}>
            <input value={priority} onChange={(event) => setPriority(event.target.value)} inputMode="numeric" />
          </Field>
          <Field label={t('channelWeight')} error={errorFor('weight')} hint={t('channelWeightHint')}>
            <input value={weight} onChange={(event) => setWeight(event.target.value)} inputMode="numeric" />
          </Field>
          <Field label={t('channelTimeout')} error={errorFor('timeout_ms')} hint={t('channelTimeoutHint')}>
            <input value={timeout} onChange={(event) => setTimeoutMs(event.target.value)} inputMode="numeric" />
          </Field>
        </div>
        <div className="row">
          <Field label={t('channelIdleTimeout')} error={errorFor('idle_timeout_ms')} hint={t('channelIdleTimeoutHint')}>
            <input value={idleTimeout} onChange={(event) => setIdleTimeoutMs(event.target.value)} inputMode="numeric" />
          </Field>
          <Field label={t('channelDeadline')} error={errorFor('deadline_ms')} hint={t('channelDeadlineHint')}>
            <input value={deadline} onChange={(event) => setDeadlineMs(event.target.value)} inputMode="numeric" />
          </Field>
        </div>
        {kind === 'volcengine' && (
          <div className="row">
            <Field label={t('channelRegion')} error={errorFor('region')} hint={t('channelRegionHint')}>
              <input value={region} onChange={(event) => setRegion(event.target.value)} placeholder="cn-beijing" />
            </Field>
            <Field label={t('channelProject')} error={errorFor('project')} hint={t('channelProjectHint')}>
              <input value={project} onChange={(event) => setProject(event.target.value)} placeholder="default" />
            </Field>
          </div>
        )}
        <Field label={t('channelHeaders')} error={errorFor('headers')} hint={t('channelHeadersHint')}>
          <textarea
            value={headers}
            rows={2}
            onChange={(event) => setHeaders(event.target.value)}
            placeholder={t('example', { value: 'HTTP-Referer: https://example.com' })}
          />
        </Field>
        <Field
          label={t('channelKey')}
          error={errorFor('key')}
          hint={
            editing?.key_hint
              ? t('channelKeyEdit', { hint: editing.key_hint })
              : secrets?.kind === 'none'
                ? t('channelKeyNotKept')
                : t('channelKeyNew', { where: serverText(secrets?.description ?? '') })
          }
        >
          <input type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} disabled={removeKey} />
        </Field>
        {editing?.key_hint && (
          <label className="row">
            <input type="checkbox" checked={removeKey} onChange={(event) => setRemoveKey(event.target.checked)} />
            {t('channelKeyRemove')}
          </label>
        )}
        <ErrorNote message={error && !FIELDS.includes(error.param ?? '') ? error.message : null} />
        <div className="row">
          <Button type="submit" kind="primary" busy={busy}>
            {editing ? t('save') : t('addChannel')}
          </Button>
          {editing && <Button onClick={props.onDone}>{t('cancel')}</Button>}
        </div>
      </form>
    </Panel>
  );
}

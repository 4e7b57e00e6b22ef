// A channel's settings as stored, from an admin or CLI input over its previous row: each field checked (channel-input.ts), the defaults for the rest.
import { CHANNEL_DEFAULTS, VOLCENGINE_DEFAULTS, type ChannelInput } from '../../../shared/channels.ts';
import { invalid } from '../errors.ts';
import type { ChannelRow, ChannelSettings } from '../storage/channels-repo.ts';
import type { CHANNEL_NUMBER_LIMITS } from './channel-input.ts';
import { checkApi, checkCompat, checkHeaders, checkInteger, checkKind, checkName, checkOption, normalizeBaseUrl } from './channel-input.ts';
import { formatModels, parseModels } from './channel-models.ts';

/** The validated settings: `input` over `previous` (or the defaults). */
export function channelSettings(input: ChannelInput, previous?: ChannelRow): Omit<ChannelSettings, 'key_hint'> {
  const number = (field: keyof typeof CHANNEL_NUMBER_LIMITS, fallback: number) =>
    input[field] === undefined ? fallback : checkInteger(field, input[field]);
  const kind = input.kind === undefined ? previous!.kind : checkKind(input.kind);
  return {
    name: input.name === undefined ? previous!.name : checkName(input.name),
    kind,
    base_url: input.base_url === undefined ? previous!.base_url : normalizeBaseUrl(input.base_url),
    models:
      input.models === undefined
        ? (previous?.models ?? CHANNEL_DEFAULTS.models)
        : formatModels(parseModels(input.models.trim() === '' ? CHANNEL_DEFAULTS.models : input.models)),
    priority: number('priority', previous?.priority ?? CHANNEL_DEFAULTS.priority),
    weight: number('weight', previous?.weight ?? CHANNEL_DEFAULTS.weight),
    timeout_ms: number('timeout_ms', previous?.timeout_ms ?? CHANNEL_DEFAULTS.timeoutMs),
    idle_timeout_ms: number('idle_timeout_ms', previous?.idle_timeout_ms ?? CHANNEL_DEFAULTS.idleTimeoutMs),
    deadline_ms: number('deadline_ms', previous?.deadline_ms ?? CHANNEL_DEFAULTS.deadlineMs),
    api: checkApi(kind, input.api, previous?.kind === kind ? previous.api : undefined),
    compat: checkCompat(kind, input.compat, previous?.kind === kind ? previous.compat : undefined),
    headers: input.headers === undefined ? (previous?.headers ?? '{}') : JSON.stringify(checkHeaders(input.headers)),
    enabled: input.enabled === undefined ? (previous?.enabled ?? 1) : input.enabled ? 1 : 0,
    ...optionsOf(input, previous),
  };
}

/** `volcengine`'s region and project (defaults when empty); other kinds keep none and refuse them. */
function optionsOf(input: ChannelInput, previous?: ChannelRow): Pick<ChannelSettings, 'region' | 'project'> {
  const kind = input.kind ?? previous!.kind;
  if (kind !== 'volcengine') {
    for (const field of ['region', 'project'] as const) {
      if (input[field] !== undefined && input[field].trim() !== '') throw invalid(`${field} applies to volcengine channels only`, field);
    }
    return { region: null, project: null };
  }
  const option = (field: 'region' | 'project', fallback: string) =>
    input[field] === undefined ? (previous?.[field] ?? fallback) : input[field].trim() === '' ? fallback : checkOption(field, input[field]);
  return { region: option('region', VOLCENGINE_DEFAULTS.region), project: option('project', VOLCENGINE_DEFAULTS.project) };
}

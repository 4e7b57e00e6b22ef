// Fetch models: reads a chat channel's upstream model list (`GET /models` in its kind's format) and, asked to, keeps it as the channel's models.
import type { ChannelSummary } from '../../../shared/channels.ts';
import { hideSecret, isServiceKind, keyParts, secretHint } from '../../../shared/channels.ts';
import { GatewayError, invalid } from '../errors.ts';
import type { RelayChannel } from '../providers/types.ts';
import { formatModels, parseModels } from './channel-models.ts';
import type { ChannelsService } from './channels.ts';
import { callUpstream, errorMessageOf, upstreamHeaders } from './channel-upstream.ts';

/** Largest model list answer read (OpenRouter's, with its descriptions, is about 1 MiB). */
export const MODEL_LIST_BYTES_LIMIT = 8 * 1024 * 1024;
/** Most models kept from one list (the rest are left out, the first ones as the upstream orders them kept). */
export const FETCHED_MODELS_LIMIT = 1000;
/** Page size asked of Anthropic and Gemini (their lists are paged). */
const PAGE_SIZE = 1000;

/** An upstream that could not give its list: a 502 saying why (the admin API), exit 1 (the CLI). */
const upstreamFailed = (message: string) => new GatewayError('upstream_failed', message);

/** What Fetch models found: the upstream's model ids, and the channel as it is now (changed when the list was kept). */
export interface FetchedModels {
  models: string[];
  channel: ChannelSummary;
}

/** The request listing the models of a channel of `channel.kind`. */
function listRequest(channel: RelayChannel): string {
  switch (channel.kind) {
    case 'openai':
      return `${channel.baseUrl}/models`;
    case 'anthropic':
      return `${channel.baseUrl}/v1/models?limit=${PAGE_SIZE}`;
    case 'gemini':
      return `${channel.baseUrl}/v1beta/models?pageSize=${PAGE_SIZE}`;
  }
}

/** The model ids of a list answer: OpenAI's and Anthropic's `data[].id`, Gemini's `models[].name` without `models/` (chat models only). */
export function modelIdsOf(kind: RelayChannel['kind'], body: unknown): string[] {
  const ids: string[] = [];
  if (kind === 'gemini') {
    const models = (body as { models?: unknown }).models;
    for (const item of Array.isArray(models) ? models : []) {
      const { name, supportedGenerationMethods: methods } = item as { name?: unknown; supportedGenerationMethods?: unknown };
      if (typeof name !== 'string') continue;
      if (Array.isArray(methods) && !methods.includes('generateContent')) continue;
      ids.push(name.replace(/^models\//, ''));
    }
  } else {
    const data = (body as { data?: unknown }).data;
    for (const item of Array.isArray(data) ? data : []) {
      const id = (item as { id?: unknown }).id;
      if (typeof id === 'string') ids.push(id);
    }
  }
  // Only names a model list may hold (no separators, spaces or control characters), each once.
  return [...new Set(ids.map((id) => id.trim()).filter((id) => id !== '' && id.length <= 200 && !/[,=*\s\p{Cc}]/u.test(id)))].slice(
    0,
    FETCHED_MODELS_LIMIT,
  );
}

/** Reads the upstream's model ids; throws a GatewayError (`upstream_failed`) saying why when it cannot (status and message, key hidden). */
export async function listUpstreamModels(channel: RelayChannel, fetchImpl?: typeof fetch): Promise<string[]> {
  const url = listRequest(channel);
  const reply = await callUpstream(
    url,
    { method: 'GET', headers: upstreamHeaders(channel) },
    { timeoutMs: channel.timeoutMs, limit: MODEL_LIST_BYTES_LIMIT, key: channel.key, ...(fetchImpl && { fetchImpl }) },
  );
  const hide = (text: string) => hideSecret(text, channel.key).slice(0, 300);
  if (!reply.ok) throw upstreamFailed(hide(reply.error));
  if (reply.status < 200 || reply.status > 299)
    throw upstreamFailed(hide(`HTTP ${reply.status} from ${url}: ${errorMessageOf(reply.text) || reply.statusText}`));
  if (reply.truncated) throw upstreamFailed(`the model list of ${url} is over ${MODEL_LIST_BYTES_LIMIT} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    throw upstreamFailed(`the model list of ${url} is not JSON`);
  }
  // An id that held the channel's key (in any encoding; the text read has it as its hint) is left out: a list is shown,
  // kept in SQLite and listed to every caller, and a key is none of those.
  const hints = keyParts(channel.key).map(secretHint);
  return modelIdsOf(channel.kind, body).filter((id) => !hints.some((hint) => id.includes(hint)));
}

/**
 * The channel's models with the fetched ones: its `local=upstream` renames stay, its plain names and `*` are replaced by
 * the list (a name a rename already serves is not added twice).
 */
export function mergedModels(current: string, fetched: readonly string[]): string {
  const renames = parseModels(current).filter((entry) => entry.local !== entry.upstream);
  const taken = new Set(renames.map((entry) => entry.local));
  const added = fetched.filter((id) => !taken.has(id)).map((id) => ({ local: id, upstream: id }));
  return formatModels([...renames, ...added]);
}

/** Fetch models of a chat channel: reads the list and, with `save`, keeps it as the channel's models (see mergedModels). */
export async function fetchChannelModels(
  channels: ChannelsService,
  nameOrId: string,
  options: { save: boolean; fetchImpl?: typeof fetch },
): Promise<FetchedModels> {
  const summary = channels.find(nameOrId);
  if (summary && isServiceKind(summary.kind))
    throw invalid(`channel "${summary.name}" is a ${summary.kind} service channel: it lists no chat models`, 'name');
  const { channel } = await channels.target(nameOrId);
  const models = await listUpstreamModels(channel, options.fetchImpl);
  if (models.length === 0) throw upstreamFailed(`${channel.name}: the upstream listed no models`);
  const current = channels.find(channel.id)!;
  if (!options.save) return { models, channel: current };
  return { models, channel: await channels.update(channel.id, { models: mergedModels(current.models, models) }) };
}

// Test helper: an in-memory ChannelDirectory (what the SQLite channel store gives relay routing), recording every attempt.
import { compatOfChannel, wiresOfChannel, type ChannelApiName, type ChannelCompatName } from '../../shared/channels.ts';
import type { ChannelDirectory, ChannelKind, ChannelOutcome, RelayChannel } from '../../electron/gateway/providers/types.ts';

/** A channel as a test configures it: the models it serves (`local=upstream` renames, `*` serves any name). */
export interface TestChannel {
  name: string;
  kind: ChannelKind;
  baseUrl: string;
  key: string | null;
  models: string[];
  priority?: number;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  deadlineMs?: number;
  headers?: Record<string, string>;
  enabled?: boolean;
  /** `openai` channels: the chat API the upstream speaks (absent: both). */
  api?: ChannelApiName;
  /** `openai` channels: the compatibility profile (absent: from the base URL, as the channel store chooses it). */
  compat?: ChannelCompatName;
}

/** The directory over `channels` (edit the array between calls), tried by priority then in listed order; `attempts` lists each record() call. */
export function memoryChannels(channels: TestChannel[]): ChannelDirectory & { attempts: { channel: string; outcome: ChannelOutcome }[] } {
  const attempts: { channel: string; outcome: ChannelOutcome }[] = [];
  const upstreamName = (channel: TestChannel, model: string): string | undefined => {
    for (const entry of channel.models) {
      const [local, upstream] = entry.split('=').map((part) => part.trim());
      if (local === model) return upstream ?? model;
      if (local === '*') return model;
    }
    return undefined;
  };
  const serving = (model: string) => channels.filter((channel) => channel.enabled !== false && upstreamName(channel, model) !== undefined);
  return {
    attempts,
    kindsServing: (model) => [...new Set(serving(model).map((channel) => channel.kind))],
    wiresServing: (model) => [
      ...new Set(
        serving(model)
          .sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0))
          .flatMap((channel) => wiresOfChannel(channel.kind, channel.api)),
      ),
    ],
    candidates(model, kind) {
      return serving(model)
        .filter((channel) => channel.kind === kind)
        .sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0))
        .map((channel): RelayChannel => ({
          id: channel.name,
          name: channel.name,
          kind: channel.kind,
          baseUrl: channel.baseUrl,
          upstreamModel: upstreamName(channel, model)!,
          priority: channel.priority ?? 0,
          weight: 1,
          timeoutMs: channel.timeoutMs ?? 5_000,
          idleTimeoutMs: channel.idleTimeoutMs ?? 30_000,
          deadlineMs: channel.deadlineMs ?? 120_000,
          headers: channel.headers ?? {},
          key: channel.key,
          ...(channel.api !== undefined && { api: channel.api }),
          ...(channel.kind === 'openai' && { compat: compatOfChannel(channel.baseUrl, channel.compat) }),
        }));
    },
    record(channelId, outcome) {
      attempts.push({ channel: channelId, outcome });
    },
    listedModels: () =>
      channels.flatMap((channel) =>
        channel.models
          .map((entry) => entry.split('=')[0]!.trim())
          .filter((model) => model !== '*')
          .map((model) => ({ model, channel: channel.name, kind: channel.kind })),
      ),
  };
}

// A channel as the console, the admin API and the CLI list it: its settings, whether it reviews portraits, and its health now.
import { compatOfChannel, type ChannelCompatName, type ChannelSummary } from '../../../shared/channels.ts';
import type { ChannelRow } from '../storage/channels-repo.ts';

/** The channel as listed at `now`; `reviewer`: it reviews new portrait assets (the first enabled service channel). */
export function channelSummary(row: ChannelRow, reviewer: boolean, now: number): ChannelSummary {
  return {
    id: row.channel_id,
    name: row.name,
    kind: row.kind as ChannelSummary['kind'],
    base_url: row.base_url,
    models: row.models,
    priority: row.priority,
    weight: row.weight,
    timeout_ms: row.timeout_ms,
    idle_timeout_ms: row.idle_timeout_ms,
    deadline_ms: row.deadline_ms,
    api: row.api as ChannelSummary['api'],
    compat: row.compat as ChannelCompatName | null,
    compat_profile: row.kind === 'openai' ? compatOfChannel(row.base_url, row.compat as ChannelCompatName | null) : null,
    headers: JSON.parse(row.headers) as Record<string, string>,
    enabled: row.enabled === 1,
    key_hint: row.key_hint,
    region: row.region,
    project: row.project,
    reviewer,
    created_at: row.created_at,
    updated_at: row.updated_at,
    health: {
      consecutive_failures: row.consecutive_failures,
      cooldown_until: row.cooldown_until !== null && row.cooldown_until > now ? row.cooldown_until : null,
      last_error: row.last_error,
      last_error_at: row.last_error_at,
      last_latency_ms: row.last_latency_ms,
      last_ok_at: row.last_ok_at,
    },
  };
}

// What a channel row gives every relayed call alike (its extra headers parsed, its compatibility profile, whether its base URL is loopback), worked out once per row, and the RelayChannel made of a row.
import { compatOfChannel, type ChannelCompatName } from '../../../shared/channels.ts';
import type { ChannelApi, ChannelKind, RelayChannel } from '../providers/types.ts';
import type { ChannelRow } from '../storage/channels-repo.ts';
import { isLoopbackUrl } from './channel-input.ts';

/** What a channel row gives every call alike: its extra headers parsed, its compatibility profile, whether its base URL is loopback. */
interface RowFacts {
  headers: Readonly<Record<string, string>>;
  compat: ChannelCompatName;
  loopback: boolean;
}

/**
 * The facts of each row, worked out once per row object: the channel list is read again, as new objects, whenever a
 * channel changes, so a changed channel is worked out afresh (and an old row's facts go with it).
 */
const rowFacts = new WeakMap<Readonly<ChannelRow>, RowFacts>();

export function factsOf(row: Readonly<ChannelRow>): RowFacts {
  let facts = rowFacts.get(row);
  if (facts === undefined) {
    facts = {
      headers: Object.freeze(JSON.parse(row.headers) as Record<string, string>),
      compat: compatOfChannel(row.base_url, row.compat as ChannelCompatName | null),
      loopback: isLoopbackUrl(row.base_url),
    };
    rowFacts.set(row, facts);
  }
  return facts;
}

/** The channel of `row` as relay uses it for `upstreamModel`, with `key` (null: it needs none). */
export function relayChannelFrom(row: Readonly<ChannelRow>, upstreamModel: string, key: string | null): RelayChannel {
  const facts = factsOf(row);
  const channel: RelayChannel = {
    id: row.channel_id,
    name: row.name,
    kind: row.kind as ChannelKind,
    baseUrl: row.base_url,
    upstreamModel,
    priority: row.priority,
    weight: row.weight,
    timeoutMs: row.timeout_ms,
    idleTimeoutMs: row.idle_timeout_ms,
    deadlineMs: row.deadline_ms,
    headers: facts.headers,
    key,
  };
  if (row.api !== null) channel.api = row.api as ChannelApi;
  if (row.kind === 'openai') channel.compat = facts.compat;
  return channel;
}

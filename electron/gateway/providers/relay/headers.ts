// Which headers cross the relay: the channel's credential and extra headers plus the caller's protocol headers go upstream; the upstream's content and protocol headers come back.
import type { CallContext, RelayChannel } from '../types.ts';
import { nextHopCount, RELAY_HOPS_HEADER } from './hops.ts';
import { headerScrubber, holdsKey } from './key-scrub.ts';
import type { HeaderView } from './upstream-headers.ts';
import type { RelayKind } from './kind.ts';

/** Protocol headers a caller sets that the upstream must see. Nothing else of the caller's goes (no credential, no hop-by-hop header, no x-gatehouse-*). */
const PROTOCOL_HEADERS = ['anthropic-version', 'anthropic-beta', 'openai-beta'] as const;

/** Upstream response headers the caller sees: the content type, the retry hints (when and whether) and the provider's own request and rate-limit headers. */
const ANSWER_HEADERS =
  /^(content-type|retry-after|retry-after-ms|x-should-retry|request-id|x-request-id|openai-.+|anthropic-.+|x-ratelimit-.+)$/i;

/**
 * The headers of a call sent upstream on `channel`; `contentType` null: the call has no body. `translated`: the call is
 * translated into another protocol, so none of the caller's protocol headers go, only the ones its translator sets.
 */
export function upstreamHeaders(
  call: CallContext,
  channel: RelayChannel,
  kind: RelayKind,
  contentType: string | null = 'application/json',
  translated?: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
  if (translated) Object.assign(headers, translated);
  else callerHeaders(call, channel, headers);
  // Walked in place: no list of entries made per call (a channel has none, or a few).
  const extra = channel.headers;
  for (const name in extra) if (Object.hasOwn(extra, name)) headers[name.toLowerCase()] = extra[name]!;
  if (channel.key !== null) Object.assign(headers, kind.auth(channel.key));
  headers[RELAY_HOPS_HEADER] = nextHopCount(call);
  return headers;
}

/** Adds the caller's accept and protocol headers that go upstream as they are. */
function callerHeaders(call: CallContext, channel: RelayChannel, headers: Record<string, string>): void {
  const accept = single(call.headers['accept']);
  if (accept) headers['accept'] = accept;
  for (const name of PROTOCOL_HEADERS) {
    const value = single(call.headers[name]);
    if (value) headers[name] = value;
  }
  const organization = single(call.headers['openai-organization']);
  const channelHas = (name: string) => Object.keys(channel.headers).some((key) => key.toLowerCase() === name);
  if (organization && !channelHas('openai-organization')) headers['openai-organization'] = organization;
}

/**
 * The upstream's response headers the caller may see (the body is re-sent, so no length or encoding; no hop-by-hop header),
 * with the channel's `key` in any encoding replaced by its hint; a header whose name holds the key is dropped.
 */
export function answerHeaders(headers: HeaderView, key: string | null): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEachMatching(ANSWER_HEADERS, (value, name) => {
    kept[name] = value;
  });
  if (!key) return kept;
  // The usual answer holds no form of the key in any name or value: one scrub of them all together tells so (a form in
  // one of them is a form in all of them together); only an answer that holds one is scrubbed header by header.
  const lowerKey = key.toLowerCase();
  let text = '';
  for (const name in kept) {
    if (name.includes(lowerKey)) return scrubbed(kept, key);
    text += `${name}\n${kept[name]}\n`;
  }
  return holdsKey(text, key) ? scrubbed(kept, key) : kept;
}

/** `kept` with `key` in any encoding replaced by its hint in each value; a header whose name holds the key is dropped. */
function scrubbed(kept: Record<string, string>, key: string): Record<string, string> {
  const scrub = headerScrubber(key);
  const lowerKey = key.toLowerCase();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(kept)) {
    if (name.includes(lowerKey) || scrub(name) !== name) continue;
    out[name] = scrub(value);
  }
  return out;
}

/** A header's first value, unless absent or blank. */
export function single(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && first.trim() !== '' ? first : undefined;
}

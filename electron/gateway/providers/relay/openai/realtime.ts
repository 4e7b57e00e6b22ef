// Relays a realtime session to OpenAI channels: the upstream WebSocket opened with the channel's key (the next channel while a handshake fails), then joined to the client's.
import { hideSecret } from '../../../../../shared/channels.ts';
import type { WebSocket } from 'ws';
import { GatewayError, type ErrorKind } from '../../../errors.ts';
import type { CallContext, ChannelDirectory, RealtimeRelayRequest, RelayChannel } from '../../types.ts';
import { attemptLog } from '../attempts.ts';
import { allCoolingDown, RETRYABLE } from '../failover.ts';
import { refuseRelayLoop } from '../hops.ts';
import { upstreamHeaders } from '../headers.ts';
import { scrubBuffer } from '../key-scrub.ts';
import { trimBase, type RelayKind } from '../kind.ts';
import { SocketBridge } from '../socket-bridge.ts';
import { connectSocket, HandshakeFailure } from '../socket-connect.ts';
import { RealtimeEvents } from './realtime-events.ts';

/** Largest upstream event accepted (a long `response.done`); over it the upstream is dropped and the client closed with 1009. */
export const REALTIME_RELAY_FRAME_BYTES = 32 * 1024 * 1024;

/** Subprotocols that carry a caller's credential: never sent upstream. */
const CREDENTIAL_PROTOCOL = /^(openai-insecure-api-key\.|gatehouse\.token\.)/;

/** The channel's realtime endpoint: `{base_url}/realtime?model=<upstream model>`, `https` as `wss` and `http` as `ws`. */
export function realtimeUrl(channel: RelayChannel): string {
  const url = new URL(`${trimBase(channel.baseUrl)}/realtime`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  url.searchParams.set('model', channel.upstreamModel);
  return url.toString();
}

/** The client's subprotocols the upstream is offered: none carrying a credential, and no organization when the channel sets its own. */
export function upstreamProtocols(offered: readonly string[], channel: RelayChannel): string[] {
  const channelOrganization = Object.keys(channel.headers).some((name) => name.toLowerCase() === 'openai-organization');
  return offered.filter(
    (protocol) => !CREDENTIAL_PROTOCOL.test(protocol) && !(channelOrganization && protocol.startsWith('openai-organization.')),
  );
}

/**
 * Opens the session on the first of `channels` (in order) whose handshake succeeds (the next after a connection error, a timeout or a
 * retryable status; a refusal with another status ends the search) and joins it to `client`; each try is recorded and journaled.
 * Throws a GatewayError naming why when none opened, with `client` given back untouched.
 */
export async function openRealtime(
  directory: ChannelDirectory,
  kind: RelayKind,
  channels: Promise<RelayChannel[]>,
  client: WebSocket,
  request: RealtimeRelayRequest,
  call: CallContext,
): Promise<void> {
  // From here on (before any wait) the client's frames are held for the upstream.
  const bridge = new SocketBridge(client, request.report);
  try {
    const { upstream, channel } = await firstOpen(directory, kind, channels, request, call);
    const events = new RealtimeEvents(request.model, channel.upstreamModel, request);
    const tape = request.tape;
    tape?.opened({ name: channel.name, upstreamModel: channel.upstreamModel });
    bridge.join(upstream, {
      scrub: (data) => scrubBuffer(data, channel.key),
      fromUpstream: (text) => events.fromUpstream(text),
      fromClient: (text) => events.fromClient(text),
      ended: () => {
        events.end();
        tape?.ended();
      },
      ...(tape && {
        seen: (from, data, binary) => tape.frame(from, data, binary),
        closedBy: (from, code, reason) => tape.closed(from, code, reason),
      }),
    });
  } catch (error) {
    bridge.drop();
    throw error;
  }
}

async function firstOpen(
  directory: ChannelDirectory,
  kind: RelayKind,
  candidates: Promise<RelayChannel[]>,
  request: RealtimeRelayRequest,
  call: CallContext,
): Promise<{ upstream: WebSocket; channel: RelayChannel }> {
  const channels = await candidates;
  refuseRelayLoop(call, request.model);
  if (channels.length === 0) throw allCoolingDown(request.model);
  const note = attemptLog(call);
  let last = 'none tried';
  for (const channel of channels) {
    const started = Date.now();
    const init = {
      headers: upstreamHeaders(call, channel, kind, null),
      protocols: upstreamProtocols(request.protocols, channel),
      maxPayload: REALTIME_RELAY_FRAME_BYTES,
      key: channel.key,
    };
    try {
      const upstream = await connectSocket(realtimeUrl(channel), init, channel.timeoutMs, call.signal);
      directory.record(channel.id, { ok: true, latencyMs: Date.now() - started });
      note(channel, Date.now() - started, { status: 101 }, true);
      return { upstream, channel };
    } catch (error) {
      if (call.signal.aborted || !(error instanceof HandshakeFailure)) throw error;
      const latencyMs = Date.now() - started;
      const message = hideSecret(error.message, channel.key);
      const status = error.upgradeStatus;
      // A refused credential is the channel's fault; another non-retryable answer shows the channel works (and ends the search).
      const works = status !== null && !RETRYABLE.has(status) && status !== 401 && status !== 403;
      directory.record(channel.id, works ? { ok: true, latencyMs } : { ok: false, latencyMs, error: message });
      note(channel, latencyMs, status === null ? { error: message } : { status });
      last = `channel '${channel.name}': ${message}`;
      if (status !== null && !RETRYABLE.has(status)) {
        throw new GatewayError(kindOfStatus(status), `The upstream refused the realtime session (${last}).`);
      }
    }
  }
  throw new GatewayError('upstream_failed', `No channel serving model '${request.model}' opened a realtime session (${last}).`);
}

/** The error kind a final upstream status is told to the caller as. */
function kindOfStatus(status: number): ErrorKind {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  return 'upstream_failed';
}

// Builds the relay bundle of one call: pass-through to the channels of the caller's kind serving its model; every neutral capability is "not built yet".
import { GatewayError } from '../../errors.ts';
import type { ChannelDirectory, ChannelKind, ModelCatalogue, PassthroughRequest, ProviderBundle, RelayChannel } from '../types.ts';
import { forwardWithFailover } from './failover.ts';
import { RELAY_KINDS } from './kinds.ts';
import { openRealtime } from './openai/realtime.ts';
import { refusingBundle } from './refusing.ts';

/** The bundle answering calls for `model` through the `kind` channels of `channels`. */
export function relayBundle(channels: ChannelDirectory, model: string, kind: ChannelKind, models: ModelCatalogue): ProviderBundle {
  const notBuilt = () =>
    new GatewayError('not_implemented', `Model '${model}' is routed to a ${kind} channel, and relay of this endpoint is not built yet.`);
  return {
    ...refusingBundle(notBuilt, models),
    passthrough: {
      forward: async (request, call) =>
        forwardWithFailover(channels, RELAY_KINDS[kind], pinned(await channels.candidates(model, kind), request), request, call),
    },
    // Realtime sessions are an OpenAI protocol: only OpenAI channels open them (others keep the refusal above).
    ...(kind === 'openai' && {
      realtimeRelay: {
        open: (client, request, call) => openRealtime(channels, RELAY_KINDS[kind], channels.candidates(model, kind), client, request, call),
      },
    }),
  };
}

/** The channels to try: only the one `request` is pinned to (a stored response lives there), else all of them. */
function pinned(candidates: RelayChannel[], request: PassthroughRequest): RelayChannel[] {
  if (request.channelId === undefined) return candidates;
  const channel = candidates.find((candidate) => candidate.id === request.channelId);
  if (!channel) {
    throw new GatewayError(
      'unavailable',
      `The channel that stored this response is not available now (disabled, removed, no longer serving model '${request.model}', or cooling down after failures).`,
    );
  }
  return [channel];
}

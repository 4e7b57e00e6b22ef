// Builds the relay bundle of one call: pass-through to the channels of the caller's kind (and chat wire) serving its model; every neutral capability is "not built yet".
import { wiresOfChannel } from '../../../../shared/channels.ts';
import { GatewayError } from '../../errors.ts';
import { candidatesOf } from './candidates-of.ts';
import type {
  ChannelDirectory,
  ChannelKind,
  ChatWire,
  ModelCatalogue,
  PassthroughRequest,
  ProviderBundle,
  RelayChannel,
} from '../types.ts';
import { forwardWithFailover } from './failover.ts';
import { RELAY_KINDS } from './kinds.ts';
import { openRealtime } from './openai/realtime.ts';
import { refusingBundle } from './refusing.ts';
import { TranslatingChat } from './translate/chat.ts';

/**
 * The bundle answering calls for `model` through the `kind` channels of `channels`; a chat call only through those speaking
 * its `wire`. It holds no state of a call or of the channels (the directory is asked at each call), so it can be kept.
 */
export function relayBundle(
  channels: ChannelDirectory,
  model: string,
  kind: ChannelKind,
  models: ModelCatalogue,
  wire?: ChatWire,
): ProviderBundle {
  const notBuilt = () =>
    new GatewayError('not_implemented', `Model '${model}' is routed to a ${kind} channel, and relay of this endpoint is not built yet.`);
  return {
    ...refusingBundle(notBuilt, models),
    // A chat completions call the gateway must read itself (`store: true`, kept locally) goes through the neutral model.
    ...(wire === 'openai-chat' && { chat: new TranslatingChat(channels, model, [kind]) }),
    passthrough: {
      // Not async: with the channels at hand (the usual call) the answer is failover's own promise, no await before it.
      forward: (request, call) => {
        const send = (candidates: RelayChannel[]) =>
          forwardWithFailover(channels, pinned(wire ? speaking(candidates, wire) : candidates, request), request, call);
        try {
          const candidates = channels.candidates(model, kind);
          return Array.isArray(candidates) ? send(candidates) : candidates.then(send);
        } catch (error) {
          // As from an async function: a refusal is the promise's.
          return Promise.reject(error as Error);
        }
      },
    },
    // Realtime sessions are an OpenAI protocol: only OpenAI channels open them (others keep the refusal above).
    ...(kind === 'openai' && {
      realtimeRelay: {
        open: (client, request, call) =>
          openRealtime(channels, RELAY_KINDS[kind], candidatesOf(channels, model, kind), client, request, call),
      },
    }),
  };
}

/** The channels of `candidates` that speak `wire` (the same list when all do, the usual case). */
function speaking(candidates: RelayChannel[], wire: ChatWire): RelayChannel[] {
  const speaks = (channel: RelayChannel) => wiresOfChannel(channel.kind, channel.api).includes(wire);
  return candidates.every(speaks) ? candidates : candidates.filter(speaks);
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

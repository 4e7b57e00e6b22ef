// The bundle of a realtime session for a model only Anthropic or Gemini channels serve: the session runs here, each response a translated chat call; audio is refused.
import { GatewayError } from '../../../errors.ts';
import type { ChannelDirectory, ChannelKind, ModelCatalogue, ProviderBundle, RealtimeProvider } from '../../types.ts';
import { translatingBundle } from './bundle.ts';

/**
 * A realtime session for `model`, answered in text by chat translated to the channels of `kinds`. The gateway runs
 * the session itself (no `realtimeRelay`): conversation, items, tools and responses as in a simulated session; the
 * model's answers come from the channels. Those APIs have no voice or ears a session could use, so audio is refused.
 */
export function translatedRealtimeBundle(
  channels: ChannelDirectory,
  model: string,
  kinds: readonly ChannelKind[],
  models: ModelCatalogue,
): ProviderBundle {
  const { realtimeRelay: _refused, ...bundle } = translatingBundle(channels, model, kinds, models);
  return { ...bundle, realtime: textOnlyRealtime(model, kinds) };
}

/** Ears and voice that refuse: the session answers in text only, and says why a request for audio is refused. */
function textOnlyRealtime(model: string, kinds: readonly ChannelKind[]): RealtimeProvider {
  const served = [...new Set(kinds)].join(' and ');
  const textOnly = `Model '${model}' is served only by ${served} channels: its realtime sessions answer text turns (translated to the ${served} chat API), with no audio in or out; send text items and set output_modalities to ["text"], or serve the model on an OpenAI channel for audio.`;
  const refuse = async (): Promise<never> => {
    throw new GatewayError('invalid_request', textOnly, 'audio');
  };
  return {
    textOnly,
    hear: refuse,
    speak: refuse,
    speakable: (text) => text,
    // Tools are translated with the chat request; the channel judges them at each response.
    checkTools: async () => undefined,
  };
}

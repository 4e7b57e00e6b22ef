// The console's list of models: the catalogue every protocol lists, with each one's price, alias target and where it is served.
import type { ModelEntry, ModelPrice } from '../../../shared/models.ts';
import type { ChannelKind, ProviderSelector } from '../providers/types.ts';
import { MEDIA_PRICES, priceOf } from './pricing.ts';

/** The media models, priced per unit by their endpoint rather than per token (see MEDIA_PRICES). */
const MEDIA_MODELS: Record<string, ModelPrice> = {
  'sim-image': { kind: 'image', small: MEDIA_PRICES.imageSmall, standard: MEDIA_PRICES.imageStandard, large: MEDIA_PRICES.imageLarge },
  'sim-tts': { kind: 'speech', perMillionCharacters: MEDIA_PRICES.speechPerMillionCharacters },
  'sim-stt': { kind: 'transcription', perMinute: MEDIA_PRICES.transcriptionPerMinute },
};

/** What the list is made from. */
export interface ModelDirectorySources {
  providers: ProviderSelector;
  channels: { listedModels(): { model: string; channel: string; kind: ChannelKind }[] };
  runtime: { readonly modelAliases: Readonly<Record<string, string>> };
}

/** Every model the gateway lists, relayed ones first (as /v1/models lists them). */
export async function listModels({ providers, channels, runtime }: ModelDirectorySources): Promise<ModelEntry[]> {
  const models = await providers.for().models.list();
  const relayed = channels.listedModels();
  return models.map((model) => {
    const aliasOf = runtime.modelAliases[model.id] ?? null;
    const priced = aliasOf ?? model.id;
    const serving = relayed.filter((entry) => entry.model === model.id);
    const { inputPerMillion, outputPerMillion, perCall } = priceOf(priced);
    return {
      id: model.id,
      displayName: model.displayName,
      capability: model.capability,
      chat: serving.length > 0 || model.geminiMethods.includes('generateContent'),
      aliasOf,
      price: MEDIA_MODELS[priced] ?? { kind: 'tokens', inputPerMillion, outputPerMillion, perCall },
      servedBy:
        serving.length > 0
          ? serving.map((entry) => ({ kind: 'channel', channel: entry.channel, upstream: entry.kind }))
          : [{ kind: 'simulator' }],
    };
  });
}

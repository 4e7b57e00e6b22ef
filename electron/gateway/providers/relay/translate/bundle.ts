// The bundle of a chat call for a model only channels of other wires serve: chat is translated, every other capability refuses.
import { GatewayError } from '../../../errors.ts';
import type { ChannelDirectory, ChannelKind, ModelCatalogue, ProviderBundle } from '../../types.ts';
import { refusingBundle } from '../refusing.ts';
import { TranslatingChat } from './chat.ts';

/** Chat for `model` translated to the channels of `kinds`; anything else this call might ask refuses, naming those kinds. */
export function translatingBundle(
  channels: ChannelDirectory,
  model: string,
  kinds: readonly ChannelKind[],
  models: ModelCatalogue,
): ProviderBundle {
  const served = kinds.join(' and ');
  const refusal = () =>
    new GatewayError(
      'invalid_request',
      `Model '${model}' is served only by ${served} channels; only chat is translated between protocols.`,
      'model',
    );
  return { ...refusingBundle(refusal, models), chat: new TranslatingChat(channels, model, kinds) };
}

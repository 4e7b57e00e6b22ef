// A bundle whose every capability refuses with one error (relay of an endpoint not built yet, a model of another protocol, an unrouted model).
import type { GatewayError } from '../../errors.ts';
import type { ModelCatalogue, ProviderBundle } from '../types.ts';

/** Every capability of the bundle throws `error()` (a realtime session is refused at its start); only the catalogue answers. `passthrough` is added by the caller when it has one. */
export function refusingBundle(error: () => GatewayError, models: ModelCatalogue): ProviderBundle {
  const refuse = async (): Promise<never> => {
    throw error();
  };
  const refuseNow = (): never => {
    throw error();
  };
  return {
    mode: 'relay',
    chat: { complete: refuse, stream: refuse, countTokens: refuse },
    embeddings: { embed: refuse },
    rerank: { rerank: refuse },
    images: { generate: refuse, edit: refuse },
    speech: { speak: refuse },
    transcription: { transcribe: refuse },
    mesh3d: { submit: refuse, check: refuse },
    realtime: { hear: refuse, speak: refuse, speakable: refuseNow, checkTools: refuse },
    reviewer: { submit: refuse, check: refuse },
    realtimeRelay: { open: refuse },
    models,
  };
}

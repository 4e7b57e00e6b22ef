// Assembles the simulate provider bundle: every capability answered offline, deterministically.
import type { Clock } from '../../time.ts';
import type { MediaPool } from '../../workers/media-pool.ts';
import type { ProviderBundle, Reviewer } from '../types.ts';
import { SimulatedEmbeddings } from './capabilities/embeddings.ts';
import { SimulatedImages, SimulatedSpeech, SimulatedTranscription } from './capabilities/media.ts';
import { SimulatedMesh3d } from './capabilities/mesh3d.ts';
import { SimulatedModeration } from './capabilities/moderation.ts';
import { SimulatedModels } from './capabilities/models.ts';
import { SimulatedRealtime } from './capabilities/realtime.ts';
import { SimulatedRerank } from './capabilities/rerank.ts';
import { SimulatedChat } from './chat.ts';

export interface SimulateOptions {
  clock: Clock;
  media: MediaPool;
  reviewer: Reviewer;
  /** How long a simulated 3D task takes. */
  sim3dMs: number;
  modelAliases: Readonly<Record<string, string>>;
}

export function createSimulateProviders(options: SimulateOptions): ProviderBundle {
  return {
    mode: 'simulate',
    chat: new SimulatedChat(options.media),
    embeddings: new SimulatedEmbeddings(),
    rerank: new SimulatedRerank(),
    moderation: new SimulatedModeration(),
    images: new SimulatedImages(options.media),
    speech: new SimulatedSpeech(options.media),
    transcription: new SimulatedTranscription(options.media),
    mesh3d: new SimulatedMesh3d(options.clock, options.sim3dMs),
    realtime: new SimulatedRealtime(options.media),
    reviewer: options.reviewer,
    models: new SimulatedModels(options.modelAliases),
  };
}

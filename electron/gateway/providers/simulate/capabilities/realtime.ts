// The simulated realtime model's ears and voice: it decodes the gateway's own voice exactly and speaks through the media pool.
import type { RealtimeProvider } from '../../types.ts';
import type { MediaPool } from '../../../workers/media-pool.ts';
import { hear } from '../hearing.ts';

export class SimulatedRealtime implements RealtimeProvider {
  private readonly media: MediaPool;
  constructor(media: MediaPool) {
    this.media = media;
  }

  async hear(samples: Int16Array): Promise<string> {
    return hear(samples);
  }

  speak(text: string, speed: number): Promise<Int16Array> {
    return this.media.run('voice', { text, speed });
  }
}

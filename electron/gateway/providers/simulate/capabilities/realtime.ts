// The simulated realtime model's ears, voice and tool check: it decodes the gateway's own voice exactly, speaks through the media pool, refuses unsatisfiable tool schemas.
import type { ToolSpec } from '../../../protocols/neutral/chat.ts';
import type { RealtimeProvider } from '../../types.ts';
import type { MediaPool } from '../../../workers/media-pool.ts';
import { hear } from '../hearing.ts';
import { checkSchemaSatisfiable } from '../text/json-schema-bounded.ts';

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

  /** Every tool's parameters schema must have a value within the simulator's limits. */
  async checkTools(tools: readonly ToolSpec[], path: string): Promise<void> {
    for (const [index, tool] of tools.entries())
      checkSchemaSatisfiable(tool.parameters, `parameters schema of ${path}[${index}] ('${tool.name}')`);
  }
}

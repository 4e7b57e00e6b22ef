// The simulated realtime model's ears, voice and tool check: it decodes the gateway's own voice exactly, speaks through the media pool within its length limit, refuses unsatisfiable tool schemas.
import type { ToolSpec } from '../../../protocols/neutral/chat.ts';
import type { RealtimeProvider } from '../../types.ts';
import type { MediaPool } from '../../../workers/media-pool.ts';
import { streamPieces } from '../../../protocols/neutral/stream-pieces.ts';
import { hear } from '../hearing.ts';
import { MAX_SPEECH_SECONDS, piecesWithinSpeechLimit } from '../speech-limit.ts';
import { checkSchemaSatisfiable } from '../text/json-schema-bounded.ts';

export class SimulatedRealtime implements RealtimeProvider {
  private readonly media: MediaPool;
  readonly maxSpokenSeconds = MAX_SPEECH_SECONDS;
  constructor(media: MediaPool) {
    this.media = media;
  }

  async hear(samples: Int16Array): Promise<string> {
    return hear(samples);
  }

  speak(text: string, speed: number): Promise<Int16Array> {
    return this.media.run('voice', { text, speed });
  }

  /** The text cut, at a whole token, where the simulated voice would pass its length limit (MAX_SPEECH_SECONDS). */
  speakable(text: string, speed: number): string {
    const pieces = streamPieces(text);
    const fit = piecesWithinSpeechLimit(pieces, speed);
    return fit === pieces.length ? text : pieces.slice(0, fit).join('');
  }

  /** Every tool's parameters schema must have a value within the simulator's limits. */
  async checkTools(tools: readonly ToolSpec[], path: string): Promise<void> {
    for (const [index, tool] of tools.entries())
      checkSchemaSatisfiable(tool.parameters, `parameters schema of ${path}[${index}] ('${tool.name}')`);
  }
}

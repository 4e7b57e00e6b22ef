// The simulated image, speech and transcription providers: the engines run on the media worker pool, off the event loop.
import type { ImagesProvider, ImageUpload, SpeechFormat, SpeechProvider, Transcript, TranscriptionProvider } from '../../types.ts';
import type { MediaPool } from '../../../workers/media-pool.ts';
import { checkSpeechSeconds } from '../speech-limit.ts';

export class SimulatedImages implements ImagesProvider {
  private readonly media: MediaPool;
  constructor(media: MediaPool) {
    this.media = media;
  }

  generate(request: { prompt: string; width: number; height: number; n: number }) {
    const { prompt, width, height, n } = request;
    return this.media.run('images.generate', { prompt, width, height, n });
  }

  edit(request: {
    prompt: string;
    images: readonly ImageUpload[];
    mask?: ImageUpload;
    n: number;
    size?: { width: number; height: number };
  }) {
    const { prompt, images, mask, n, size } = request;
    return this.media.run('images.edit', { prompt, images: [...images], ...(mask && { mask }), n, ...(size && { size }) });
  }
}

export class SimulatedSpeech implements SpeechProvider {
  private readonly media: MediaPool;
  constructor(media: MediaPool) {
    this.media = media;
  }

  /** Refuses speech the simulated voice would speak for longer than MAX_SPEECH_SECONDS. */
  async speak(request: { input: string; speed: number; format: SpeechFormat }) {
    checkSpeechSeconds(request.input, request.speed);
    return this.media.run('speech', { input: request.input, speed: request.speed, format: request.format });
  }
}

export class SimulatedTranscription implements TranscriptionProvider {
  private readonly media: MediaPool;
  constructor(media: MediaPool) {
    this.media = media;
  }

  /**
   * The simulator hears its own voice exactly and any other audio as a stable sentence; it has no timing of its own.
   * Its voice speaks no language in particular: a translation is the transcript itself.
   */
  async transcribe(request: { bytes: Uint8Array; fileName: string }): Promise<Transcript> {
    return this.media.run('transcribe', { bytes: request.bytes, name: request.fileName });
  }
}

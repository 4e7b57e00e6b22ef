// The input audio buffer of a realtime session: appended audio on the session's audio clock, and server VAD over it.
import { SESSION_RATE } from './audio-format.ts';
import type { TurnDetection } from './session-config.ts';

/** Root-mean-square level of PCM16 samples in [0, 1]: how loud a chunk is. */
function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += (sample / 32768) ** 2;
  return Math.sqrt(sum / samples.length);
}

/** VAD looks at 10 ms frames. */
const FRAME = SESSION_RATE / 100;
/** A frame is speech when its RMS level (0–1 of full scale) exceeds this times the threshold: 0.02 (−34 dBFS) at 0.5. */
const LEVEL_PER_THRESHOLD = 0.04;

/** Samples of `ms` milliseconds on the session clock, and back. */
export const samplesOfMs = (ms: number) => Math.round((ms * SESSION_RATE) / 1000);
export const msOfSamples = (samples: number) => Math.round((samples * 1000) / SESSION_RATE);

/** A VAD finding, at a sample index of the session clock (all audio appended since the session began). */
export interface VadEvent {
  type: 'speech_started' | 'speech_stopped';
  at: number;
}

export class InputAudio {
  private chunks: Int16Array[] = [];
  /** Session sample index of the buffer's first sample. */
  private start = 0;
  /** Samples appended in the whole session: the session audio clock. */
  private written = 0;
  /** VAD state: frames are analysed in order, the part of a frame not yet complete waits in `carry`. */
  private carry: Int16Array = new Int16Array(0);
  private frameAt = 0;
  private speaking = false;
  private silentSamples = 0;
  /** Speech cannot be found to start before this sample (the end of the last committed turn). */
  private floor = 0;

  /** Samples in the buffer. */
  get length(): number {
    return this.written - this.start;
  }

  /** True while VAD is inside a speech turn. */
  get inSpeech(): boolean {
    return this.speaking;
  }

  /** Appends samples; with turn detection on, returns the speech starts and stops found in them, in order. */
  append(samples: Int16Array, detection: TurnDetection | null): VadEvent[] {
    // Between turns only the prefix padding can still become part of speech: older silence is dropped, the buffer stays small.
    if (detection && !this.speaking) this.dropBefore(this.frameAt - samplesOfMs(detection.prefixPaddingMs));
    this.chunks.push(samples);
    this.written += samples.length;
    if (!detection) {
      this.carry = new Int16Array(0);
      this.frameAt = this.written;
      return [];
    }
    const data = new Int16Array(this.carry.length + samples.length);
    data.set(this.carry);
    data.set(samples, this.carry.length);
    const level = LEVEL_PER_THRESHOLD * detection.threshold;
    const events: VadEvent[] = [];
    let i = 0;
    for (; i + FRAME <= data.length; i += FRAME, this.frameAt += FRAME) {
      const loud = rms(data.subarray(i, i + FRAME)) > level;
      if (!this.speaking) {
        if (!loud) continue;
        this.speaking = true;
        this.silentSamples = 0;
        events.push({
          type: 'speech_started',
          at: Math.max(this.floor, this.start, this.frameAt - samplesOfMs(detection.prefixPaddingMs)),
        });
      } else if (loud) {
        this.silentSamples = 0;
      } else if ((this.silentSamples += FRAME) >= samplesOfMs(detection.silenceDurationMs)) {
        this.speaking = false;
        this.floor = this.frameAt + FRAME;
        events.push({ type: 'speech_stopped', at: this.floor });
      }
    }
    this.carry = data.slice(i);
    return events;
  }

  /** Removes the buffer up to session sample `to` (default: all of it) and returns its samples from `from` on. */
  take(from = this.start, to = this.written): Int16Array {
    const all = new Int16Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    const end = Math.min(Math.max(to, this.start), this.written) - this.start;
    const taken = all.slice(Math.max(from - this.start, 0), end);
    this.chunks = end < all.length ? [all.slice(end)] : [];
    this.start += end;
    this.floor = Math.max(this.floor, this.start);
    return taken;
  }

  private dropBefore(sample: number): void {
    while (this.chunks.length > 0 && this.start < sample) {
      const first = this.chunks[0]!;
      const cut = Math.min(first.length, sample - this.start);
      if (cut === first.length) this.chunks.shift();
      else this.chunks[0] = first.subarray(cut);
      this.start += cut;
    }
  }

  /** Ends any speech turn in progress (after a manual commit or a clear). */
  resetSpeech(): void {
    this.speaking = false;
    this.silentSamples = 0;
    this.floor = this.written;
  }
}

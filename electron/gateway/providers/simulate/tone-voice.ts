// A simple deterministic voice: speaks text as PCM16 mono tones (one short tone per character, a pause per space), for simulated audio output.
import { hash32 } from './text-features.ts';

/** Sample rate of realtime audio (the API's `audio/pcm` format). */
export const PCM_RATE = 24_000;

const CHARACTER_MS = 55;
const AMPLITUDE = 0.3 * 32767;

/** PCM16 samples of `text`; the length grows with the text. */
export function speakAsTones(text: string, sampleRate = PCM_RATE): Int16Array {
  const perCharacter = Math.round((sampleRate * CHARACTER_MS) / 1000);
  const samples = new Int16Array(Math.max(1, text.length) * perCharacter);
  [...text].forEach((character, index) => {
    if (/\s/.test(character)) return;
    const frequency = 220 + (hash32(character.toLowerCase()) % 440);
    for (let i = 0; i < perCharacter; i++) {
      const envelope = Math.sin((Math.PI * i) / perCharacter);
      samples[index * perCharacter + i] = Math.round(AMPLITUDE * envelope * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
    }
  });
  return samples;
}

/** Root-mean-square level of PCM16 samples in [0, 1]: how loud a chunk is. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += (sample / 32768) ** 2;
  return Math.sqrt(sum / samples.length);
}

/** Little-endian PCM16 bytes of samples. */
export function pcmBytes(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => out.writeInt16LE(sample, i * 2));
  return out;
}

/** Samples of little-endian PCM16 bytes (a trailing odd byte is dropped). */
export function pcmSamples(bytes: Buffer): Int16Array {
  const samples = new Int16Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

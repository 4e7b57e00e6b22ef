// Simulated speech-to-text: our own speech decodes back to its exact text; any other audio gets a stable sentence derived from its bytes.
import { createHash } from 'node:crypto';
import { readWavFormat } from '../../protocols/media/wav-format.ts';
import { isMp3, mp3Duration, parseWav, readMp3Text } from './audio-containers.ts';
import { listen, VOICE_RATE } from './fsk-voice.ts';
import { paragraph } from './text/sentences.ts';
import { seededRandom } from './text/seed.ts';
import { pcmSamples } from './pcm.ts';

/** What was heard, and how long the audio lasts (seconds). */
export interface Heard {
  text: string;
  duration: number;
}

/** Bit rate assumed to estimate the duration of compressed audio that is not ours. */
const ASSUMED_BITS_PER_SECOND = 64_000;

/** Transcribes an uploaded file: WAV and raw PCM by their signal, MP3 by the text tag our speech writes; a WAV lasts as long as its data chunk says at its declared rate. */
export function transcribe(bytes: Buffer, fileName: string): Heard {
  const wav = parseWav(bytes);
  if (wav) return { text: listen(wav.samples, wav.rate) ?? wav.text ?? fallback(bytes), duration: wav.samples.length / wav.rate };
  const wavSeconds = readWavFormat(bytes)?.seconds;
  if (wavSeconds !== undefined) return { text: fallback(bytes), duration: wavSeconds };
  if (isMp3(bytes)) {
    const tagged = readMp3Text(bytes);
    return { text: tagged ?? fallback(bytes), duration: mp3Duration(bytes) || (bytes.length * 8) / ASSUMED_BITS_PER_SECOND };
  }
  if (/\.(pcm|raw)$/i.test(fileName) || bytes.length % 2 === 0) {
    const text = listen(pcmSamples(bytes));
    if (text !== undefined) return { text, duration: bytes.length / 2 / VOICE_RATE };
  }
  return { text: fallback(bytes), duration: (bytes.length * 8) / ASSUMED_BITS_PER_SECOND };
}

function fallback(bytes: Buffer): string {
  return paragraph(seededRandom(createHash('sha256').update(bytes).digest('hex')), []);
}

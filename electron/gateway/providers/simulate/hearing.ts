// What the simulated realtime model hears in user audio: the gateway's own voice decodes to its exact text, other audio to a stable sentence.
import { listen } from './fsk-voice.ts';
import { pcmBytes } from './pcm.ts';
import { transcribe } from './transcribe.ts';

/** Samples this quiet or quieter (about −54 dBFS) count as silence around speech. */
const QUIET = 64;
/** Zeros added after trimmed speech so its last symbol is whole again (shorter than the voice's shortest symbol). */
const TAIL_PAD = 64;

/** The text said in `samples` (24 kHz PCM16). Leading and trailing silence, as VAD leaves it, are ignored. */
export function hear(samples: Int16Array): string {
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]!) <= QUIET) first++;
  let last = samples.length;
  while (last > first && Math.abs(samples[last - 1]!) <= QUIET) last--;
  const speech = new Int16Array(last - first + TAIL_PAD);
  speech.set(samples.subarray(first, last));
  const exact = last > first ? (listen(samples.subarray(first, last)) ?? listen(speech)) : undefined;
  return exact ?? transcribe(pcmBytes(samples), 'input.pcm').text;
}

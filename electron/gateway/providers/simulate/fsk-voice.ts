// The simulated voice: speaks text as tones that carry its UTF-8 bytes (frequency-shift keying), so the gateway's own speech transcribes back exactly.

/** Sample rate of every simulated voice (PCM16 mono) unless asked otherwise. */
export const VOICE_RATE = 24_000;
/** Lowest sample rate the voice supports: its highest tone (10.6 kHz) must stay below half the rate. */
export const MIN_VOICE_RATE = 22_050;
/** Length of the two header symbols, and of each byte symbol at speed 1. */
const BASE_MS = 55;
const MIN_SYMBOL_MS = 14;
const MAX_SYMBOL_MS = 220;
const START_HZ = 300;
const BASE_HZ = 400;
const STEP_HZ = 40;
const AMPLITUDE = 0.3 * 32767;
/** Goertzel power per squared sample below which a symbol is silence or noise, not one of our tones. */
const MIN_POWER_PER_SAMPLE2 = 1e12 / 1320 ** 2;

/** Byte tones on each side of the zero-crossing estimate that the decoder compares. */
const NEIGHBOURS = 6;

const frequencyOf = (byte: number) => BASE_HZ + byte * STEP_HZ;
const samplesOf = (ms: number, rate: number) => Math.round((ms * rate) / 1000);
const checksumOf = (bytes: Iterable<number>) => {
  let sum = 0;
  for (const byte of bytes) sum = (sum + byte) & 0xff;
  return sum;
};

/** How to speak: the sample rate of the samples (default 24 kHz) and the speed (0.25 to 4, default 1). */
export interface VoiceOptions {
  sampleRate?: number;
  speed?: number;
}

/**
 * PCM16 mono samples of `text`: a start tone, a tone giving the byte symbols' length (55 ms / speed,
 * 14 to 220 ms), one tone per UTF-8 byte and a checksum byte. Duration grows with the text and shrinks with speed.
 */
export function synthesizeSpeech(text: string, options: VoiceOptions = {}): Int16Array {
  const rate = options.sampleRate ?? VOICE_RATE;
  if (rate < MIN_VOICE_RATE) throw new RangeError(`the simulated voice needs a sample rate of at least ${MIN_VOICE_RATE} Hz`);
  const symbolMs = symbolMsAt(options.speed ?? 1);
  const bytes = Buffer.from(text, 'utf8');
  const tones = [
    { hz: START_HZ, length: samplesOf(BASE_MS, rate) },
    { hz: frequencyOf(symbolMs), length: samplesOf(BASE_MS, rate) },
    ...[...bytes, checksumOf(bytes)].map((byte) => ({ hz: frequencyOf(byte), length: samplesOf(symbolMs, rate) })),
  ];
  const samples = new Int16Array(tones.reduce((sum, tone) => sum + tone.length, 0));
  let at = 0;
  for (const { hz, length } of tones) {
    for (let i = 0; i < length; i++) {
      const envelope = Math.sin((Math.PI * i) / length);
      samples[at + i] = Math.round(AMPLITUDE * envelope * Math.sin((2 * Math.PI * hz * i) / rate));
    }
    at += length;
  }
  return samples;
}

/** Length of each byte symbol at `speed`. */
function symbolMsAt(speed: number): number {
  return Math.min(MAX_SYMBOL_MS, Math.max(MIN_SYMBOL_MS, Math.round(BASE_MS / speed)));
}

/** Seconds of audio `synthesizeSpeech(text, { speed })` makes at 24 kHz, computed without making it. */
export function speechSeconds(text: string, speed = 1): number {
  return speechSecondsOfBytes(Buffer.byteLength(text, 'utf8'), speed);
}

/** Seconds of speech at 24 kHz for a text of `bytes` UTF-8 bytes at `speed`. */
export function speechSecondsOfBytes(bytes: number, speed = 1): number {
  return (2 * samplesOf(BASE_MS, VOICE_RATE) + (bytes + 1) * samplesOf(symbolMsAt(speed), VOICE_RATE)) / VOICE_RATE;
}

/** `synthesizeSpeech` at 24 kHz. */
export function speak(text: string, speed = 1): Int16Array {
  return synthesizeSpeech(text, { speed });
}

/** The text carried by speech from `synthesizeSpeech` (at `rate`), or undefined when the audio is not such speech. */
export function listen(samples: Int16Array, rate = VOICE_RATE): string | undefined {
  if (rate < MIN_VOICE_RATE) return undefined;
  const header = samplesOf(BASE_MS, rate);
  const byteTones = Array.from({ length: 256 }, (_, byte) => frequencyOf(byte));
  if (samples.length < header * 2 || strongest(samples, 0, header, rate, [START_HZ, ...byteTones]) !== 0) return undefined;
  const symbolMs = strongest(samples, header, header, rate, byteTones);
  if (symbolMs < MIN_SYMBOL_MS || symbolMs > MAX_SYMBOL_MS) return undefined;
  const symbol = samplesOf(symbolMs, rate);
  const bytes: number[] = [];
  for (let from = header * 2; from + symbol <= samples.length; from += symbol) {
    // Zero crossings give the tone's frequency roughly; Goertzel then picks among the nearest byte tones.
    const guess = ((zeroCrossings(samples, from, symbol) * rate) / (2 * symbol) - BASE_HZ) / STEP_HZ;
    const low = Math.max(0, Math.min(255, Math.round(guess)) - NEIGHBOURS);
    const nearby = byteTones.slice(low, Math.min(256, low + 2 * NEIGHBOURS + 1));
    const index = strongest(samples, from, symbol, rate, nearby);
    if (index < 0) return undefined;
    bytes.push(low + index);
  }
  if (bytes.length === 0 || checksumOf(bytes.slice(0, -1)) !== bytes.at(-1)) return undefined;
  const text = Buffer.from(bytes.slice(0, -1)).toString('utf8');
  return text.includes('\uFFFD') || /[\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : text;
}

/** Sign changes within one symbol. */
function zeroCrossings(samples: Int16Array, from: number, length: number): number {
  let count = 0;
  let previous = 0;
  for (let i = from; i < from + length; i++) {
    const sign = Math.sign(samples[i]!);
    if (sign !== 0) {
      if (previous !== 0 && sign !== previous) count++;
      previous = sign;
    }
  }
  return count;
}

/** Index of the frequency with the most power in one symbol (Goertzel), or -1 when no tone is loud enough. */
function strongest(samples: Int16Array, from: number, length: number, rate: number, frequencies: number[]): number {
  let best = 0;
  let bestPower = -1;
  frequencies.forEach((hz, index) => {
    const coefficient = 2 * Math.cos((2 * Math.PI * hz) / rate);
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < length; i++) {
      const s0 = samples[from + i]! + coefficient * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
    if (power > bestPower) {
      bestPower = power;
      best = index;
    }
  });
  return bestPower < MIN_POWER_PER_SAMPLE2 * length * length ? -1 : best;
}

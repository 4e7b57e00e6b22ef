// Realtime audio formats: 24 kHz PCM16 and 8 kHz G.711 μ-law / A-law, decoded to 24 kHz samples and encoded from them.

/** The audio formats a realtime session speaks (GA `audio/pcm`, `audio/pcmu`, `audio/pcma`; beta `pcm16`, `g711_ulaw`, `g711_alaw`). */
export type AudioFormat = 'pcm16' | 'pcmu' | 'pcma';

/** Sample rate of every session's audio inside the gateway (the PCM16 format's rate). */
export const SESSION_RATE = 24_000;
/** G.711 runs at 8 kHz: one of its samples stands for three session samples. */
const G711_STEP = 3;

/** The format's GA presentation. */
export function gaFormat(format: AudioFormat): Record<string, unknown> {
  if (format === 'pcm16') return { type: 'audio/pcm', rate: SESSION_RATE };
  return { type: format === 'pcmu' ? 'audio/pcmu' : 'audio/pcma' };
}

/** The format's beta name. */
export function betaFormat(format: AudioFormat): string {
  return format === 'pcm16' ? 'pcm16' : format === 'pcmu' ? 'g711_ulaw' : 'g711_alaw';
}

/** Reads a GA format object or a beta format name; undefined when it is neither. */
export function parseFormat(value: unknown): AudioFormat | undefined {
  if (value === 'pcm16' || value === 'g711_ulaw' || value === 'g711_alaw') {
    return value === 'pcm16' ? 'pcm16' : value === 'g711_ulaw' ? 'pcmu' : 'pcma';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { type, rate } = value as { type?: unknown; rate?: unknown };
  if (type === 'audio/pcm' && (rate === undefined || rate === SESSION_RATE)) return 'pcm16';
  if (type === 'audio/pcmu') return 'pcmu';
  if (type === 'audio/pcma') return 'pcma';
  return undefined;
}

/** Session samples (24 kHz) of bytes in `format`; G.711 is widened to 24 kHz by repeating each sample. */
export function decodeAudio(bytes: Buffer, format: AudioFormat): Int16Array {
  if (format === 'pcm16') {
    const samples = new Int16Array(Math.floor(bytes.length / 2));
    for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
    return samples;
  }
  const decode = format === 'pcmu' ? ulawToLinear : alawToLinear;
  const samples = new Int16Array(bytes.length * G711_STEP);
  for (let i = 0; i < bytes.length; i++) samples.fill(decode(bytes[i]!), i * G711_STEP, (i + 1) * G711_STEP);
  return samples;
}

/** Bytes in `format` of session samples; G.711 averages each run of three samples (a crude low-pass) down to 8 kHz. */
export function encodeAudio(samples: Int16Array, format: AudioFormat): Buffer {
  if (format === 'pcm16') {
    const out = Buffer.alloc(samples.length * 2);
    samples.forEach((sample, i) => out.writeInt16LE(sample, i * 2));
    return out;
  }
  const encode = format === 'pcmu' ? linearToUlaw : linearToAlaw;
  const out = Buffer.alloc(Math.ceil(samples.length / G711_STEP));
  for (let i = 0; i < out.length; i++) {
    const run = samples.subarray(i * G711_STEP, (i + 1) * G711_STEP);
    out[i] = encode(Math.round(run.reduce((sum, sample) => sum + sample, 0) / run.length));
  }
  return out;
}

/** Bytes per session sample in `format` (G.711: a third of a byte), to cut encoded audio on sample boundaries. */
export function samplesPerUnit(format: AudioFormat): number {
  return format === 'pcm16' ? 1 : G711_STEP;
}

const ULAW_BIAS = 0x84;
const CLIP = 32635;

function linearToUlaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), CLIP) + ULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = sign | (exponent << 4) | mantissa;
  return ~magnitude & 0xff;
}

function ulawToLinear(byte: number): number {
  const value = ~byte & 0xff;
  const exponent = (value >> 4) & 0x07;
  const magnitude = ((((value & 0x0f) << 3) + ULAW_BIAS) << exponent) - ULAW_BIAS;
  return value & 0x80 ? -magnitude : magnitude;
}

function linearToAlaw(sample: number): number {
  const sign = sample >= 0 ? 0x80 : 0;
  const magnitude = Math.min(Math.abs(sample), CLIP);
  let byte: number;
  if (magnitude < 256) {
    byte = magnitude >> 4;
  } else {
    let exponent = 7;
    for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 1; mask >>= 1) exponent--;
    byte = (exponent << 4) | ((magnitude >> (exponent + 3)) & 0x0f);
  }
  return (byte | sign) ^ 0x55;
}

function alawToLinear(byte: number): number {
  const value = byte ^ 0x55;
  const exponent = (value >> 4) & 0x07;
  const mantissa = value & 0x0f;
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return value & 0x80 ? magnitude : -magnitude;
}

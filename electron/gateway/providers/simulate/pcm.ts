// Raw PCM16 helpers: little-endian bytes to samples and back.

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

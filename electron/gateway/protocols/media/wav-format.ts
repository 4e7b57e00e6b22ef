// RIFF/WAVE structure: the chunks of a WAV file and the format its headers declare, read without decoding samples.

/** The chunks of a RIFF/WAVE file in order (a chunk's body is cut short when the file is); none when it is not one. */
export function* waveChunks(bytes: Buffer): Generator<{ id: string; body: Buffer }> {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return;
  for (let offset = 12; offset + 8 <= bytes.length;) {
    const size = bytes.readUInt32LE(offset + 4);
    yield { id: bytes.toString('ascii', offset, offset + 4), body: bytes.subarray(offset + 8, offset + 8 + size) };
    offset += 8 + size + (size % 2);
  }
}

/** What a WAV's `fmt ` chunk declares, and the seconds its `data` chunk holds (when both are there and it is PCM we can time). */
export interface WavFormat {
  rate: number;
  channels: number;
  bits: number;
  seconds?: number;
}

/** The format of a WAV file, read from its headers without decoding samples; undefined when it is not a WAV with a `fmt ` chunk. */
export function readWavFormat(bytes: Buffer): WavFormat | undefined {
  let format: WavFormat | undefined;
  for (const { id, body } of waveChunks(bytes)) {
    if (id === 'fmt ' && body.length >= 16)
      format = { channels: body.readUInt16LE(2), rate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
    else if (id === 'data' && format && format.rate > 0 && format.channels > 0 && format.bits >= 8) {
      format.seconds = body.length / (format.rate * format.channels * Math.ceil(format.bits / 8));
    }
  }
  return format;
}

// Test helper: PCM WAV files of silence built by hand (a 44-byte header and zeroed samples), for transcription and limit tests.

/** A mono PCM WAV header and `dataBytes` of silence, declaring `rate` Hz and `bits` per sample. */
export function silentWav(rate: number, bits: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE((rate * bits) / 8, 28);
  header.writeUInt16LE(bits / 8, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}

/** A 16-bit mono WAV at `rate` Hz holding `seconds` of silence. */
export function silentWav16(rate: number, seconds: number): Buffer {
  return silentWav(rate, 16, rate * 2 * seconds);
}

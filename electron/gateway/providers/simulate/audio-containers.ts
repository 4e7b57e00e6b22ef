// Audio containers for simulated speech: WAV (PCM16 mono) read and write, and MP3 read (its duration, and the text in our ID3v2 TXXX frame; mp3-file.ts writes it).
import { waveChunks } from '../../protocols/media/wav-format.ts';
import { pcmBytes, pcmSamples } from './pcm.ts';

/** Description of the ID3 TXXX frame that carries the spoken text in our MP3s. */
export const ID3_DESCRIPTION = 'gatehouse-text';

/** Software name in the LIST/INFO chunk of our WAVs; its ICMT comment then holds the spoken text. */
const WAV_SOFTWARE = 'Gatehouse simulated voice';

/** A PCM16 mono WAV of the samples; with `text`, a LIST/INFO chunk after the audio names it (ICMT) and us (ISFT). */
export function wavFile(samples: Int16Array, rate: number, text?: string): Buffer {
  const data = pcmBytes(samples);
  const info =
    text === undefined
      ? Buffer.alloc(0)
      : riffChunk(
          'LIST',
          Buffer.concat([
            Buffer.from('INFO', 'ascii'),
            riffChunk('ISFT', zeroTerminated(WAV_SOFTWARE)),
            riffChunk('ICMT', zeroTerminated(text)),
          ]),
        );
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length + (data.length % 2) + info.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data, Buffer.alloc(data.length % 2), info]);
}

/**
 * PCM16 samples and rate of a mono or stereo 16-bit WAV (first channel), and the text of our LIST/INFO chunk
 * when there is one; undefined when it is not such a WAV.
 */
export function parseWav(bytes: Buffer): { samples: Int16Array; rate: number; text?: string } | undefined {
  let rate = 0;
  let channels = 1;
  let bits = 0;
  let samples: Int16Array | undefined;
  let text: string | undefined;
  for (const { id, body } of waveChunks(bytes)) {
    if (id === 'fmt ' && body.length >= 16) {
      channels = body.readUInt16LE(2);
      rate = body.readUInt32LE(4);
      bits = body.readUInt16LE(14);
    } else if (id === 'data' && bits === 16 && channels > 0) {
      const all = pcmSamples(body);
      samples = channels === 1 ? all : all.filter((_, i) => i % channels === 0);
    } else if (id === 'LIST' && body.toString('ascii', 0, 4) === 'INFO') {
      const fields = infoFields(body.subarray(4));
      if (fields.get('ISFT') === WAV_SOFTWARE) text = fields.get('ICMT');
    }
  }
  return samples && rate > 0 ? { samples, rate, ...(text !== undefined && { text }) } : undefined;
}

function riffChunk(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'ascii');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
}

function zeroTerminated(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.alloc(1)]);
}

function infoFields(body: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  for (let offset = 0; offset + 8 <= body.length;) {
    const size = body.readUInt32LE(offset + 4);
    let end = Math.min(body.length, offset + 8 + size);
    while (end > offset + 8 && body[end - 1] === 0) end--;
    fields.set(body.toString('ascii', offset, offset + 4), body.toString('utf8', offset + 8, end));
    offset += 8 + size + (size % 2);
  }
  return fields;
}

/** The text of our TXXX frame in an MP3's ID3v2 tag, if there is one. */
export function readMp3Text(bytes: Buffer): string | undefined {
  if (bytes.length < 10 || bytes.toString('ascii', 0, 3) !== 'ID3') return undefined;
  const tagSize = syncsafe(bytes, 6);
  let offset = 10;
  while (offset + 10 <= 10 + tagSize) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = syncsafe(bytes, offset + 4);
    const body = bytes.subarray(offset + 10, offset + 10 + size);
    if (id === 'TXXX' && body[0] === 3) {
      const [description, value] = body.subarray(1).toString('utf8').split('\0');
      if (description === ID3_DESCRIPTION) return value;
    }
    if (size === 0) break;
    offset += 10 + size;
  }
  return undefined;
}

/** Whether the bytes look like MP3 (an ID3 tag or an MPEG audio frame sync). */
export function isMp3(bytes: Buffer): boolean {
  return bytes.toString('ascii', 0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
}

/** Seconds of MPEG-1/2 Layer III audio in the frames after any ID3v2 tag (0 when there are none). */
export function mp3Duration(bytes: Buffer): number {
  let offset = bytes.toString('ascii', 0, 3) === 'ID3' && bytes.length >= 10 ? 10 + syncsafe(bytes, 6) : 0;
  let seconds = 0;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff && (bytes[offset + 1]! & 0xe0) === 0xe0) {
    const version = (bytes[offset + 1]! >> 3) & 3;
    const rate = MP3_RATES[version]?.[(bytes[offset + 2]! >> 2) & 3];
    const kbps = (version === 3 ? MP3_KBPS_V1 : MP3_KBPS_V2)[bytes[offset + 2]! >> 4];
    if (!rate || !kbps || ((bytes[offset + 1]! >> 1) & 3) !== 1) break;
    const perFrame = version === 3 ? 1152 : 576;
    seconds += perFrame / rate;
    offset += Math.floor(((perFrame / 8) * kbps * 1000) / rate) + ((bytes[offset + 2]! >> 1) & 1);
  }
  return seconds;
}

const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
const MP3_KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

function syncsafe(bytes: Buffer, offset: number): number {
  return (bytes[offset]! << 21) | (bytes[offset + 1]! << 14) | (bytes[offset + 2]! << 7) | bytes[offset + 3]!;
}

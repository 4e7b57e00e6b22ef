// The MP3 of simulated speech (lamejs, 64 kbit/s) behind an ID3v2.4 tag whose TXXX frame holds the spoken text; its own module so that lamejs loads only where speech is encoded (the media worker), not with the gateway.
import { Mp3Encoder } from '@breezystack/lamejs';
import { ID3_DESCRIPTION } from './audio-containers.ts';

/** An MP3 of the samples at 64 kbit/s, preceded by an ID3v2.4 tag whose TXXX frame holds `text`. */
export function mp3File(samples: Int16Array, rate: number, text: string): Buffer {
  const encoder = new Mp3Encoder(1, rate, 64);
  const frames: Uint8Array[] = [];
  for (let i = 0; i < samples.length; i += 1152) frames.push(encoder.encodeBuffer(samples.subarray(i, i + 1152)));
  frames.push(encoder.flush());
  return Buffer.concat([id3Tag(text), ...frames.map((frame) => Buffer.from(frame))]);
}

function id3Tag(text: string): Buffer {
  const body = Buffer.concat([Buffer.from([3]), Buffer.from(`${ID3_DESCRIPTION}\0${text}`, 'utf8')]);
  const frame = Buffer.concat([Buffer.from('TXXX', 'ascii'), toSyncsafe(body.length), Buffer.from([0, 0]), body]);
  return Buffer.concat([Buffer.from('ID3', 'ascii'), Buffer.from([4, 0, 0]), toSyncsafe(frame.length), frame]);
}

function toSyncsafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}

// The most a transcription or translation can be charged, known before it is made: what it reserves of its token's quota.
import { MAX_TRANSCRIPTION_SECONDS } from './media-limits.ts';
import { readWavFormat } from '../protocols/media/wav-format.ts';

/**
 * The fewest bytes a second of uploaded audio takes, as far as a quota's reservation assumes (8 kbit/s, the lowest MP3
 * bit rate): a file of `b` bytes that is not a WAV reserves at most `b / MIN_AUDIO_BYTES_PER_SECOND` seconds.
 */
export const MIN_AUDIO_BYTES_PER_SECOND = 1_000;

/**
 * The seconds of audio a transcription reserves: a WAV's duration as its header says, else its bytes at
 * MIN_AUDIO_BYTES_PER_SECOND, never more than MAX_TRANSCRIPTION_SECONDS (the most a transcription is charged here).
 * `upload` is the file when it is at hand, else only `bytes`, the most it may hold (a relayed form's length).
 */
export function transcriptionHoldSeconds(bytes: number, upload?: Buffer): number {
  const declared = upload && readWavFormat(upload)?.seconds;
  const seconds = declared ?? Math.ceil(bytes / MIN_AUDIO_BYTES_PER_SECOND);
  return Math.min(MAX_TRANSCRIPTION_SECONDS, seconds);
}

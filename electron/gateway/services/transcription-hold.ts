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

/**
 * The fewest bytes a second of uploaded audio takes, as far as believing an upstream's reported seconds goes (4 kbit/s,
 * below the lowest rate speech codecs such as Opus use): looser than the hold's, so an honest upload of a low-rate codec
 * is believed, and not capped at MAX_TRANSCRIPTION_SECONDS (that limit is this gateway's own decoding's; an upstream
 * hears any file it takes).
 */
export const MIN_HEARD_BYTES_PER_SECOND = 500;

/** The most seconds of audio an upload of `bytes` can hold, for believing what an upstream says it heard. */
export function transcriptionHeardSeconds(bytes: number): number {
  return Math.ceil(bytes / MIN_HEARD_BYTES_PER_SECOND);
}

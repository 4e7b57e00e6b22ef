// The simulated voice's length limit: its tones grow with the text, so speech longer than MAX_SPEECH_SECONDS is refused (speech) or cut (spoken realtime answers).
import { invalid } from '../../errors.ts';
import { speechSeconds, speechSecondsOfBytes } from './fsk-voice.ts';

/** Most seconds of audio one speech request (or one spoken realtime response) may produce. */
export const MAX_SPEECH_SECONDS = 300;

/** The simulated speech of `input` at `speed` within MAX_SPEECH_SECONDS, or a 400 naming the length it would have. */
export function checkSpeechSeconds(input: string, speed: number): void {
  const seconds = speechSeconds(input, speed);
  if (seconds > MAX_SPEECH_SECONDS) {
    throw invalid(
      `The speech of this 'input' would last ${Math.ceil(seconds)} s at speed ${speed}; at most ${MAX_SPEECH_SECONDS} s per request (shorten 'input' or raise 'speed').`,
      'input',
    );
  }
}

/** How many of `pieces` (in order) can be spoken at `speed` within MAX_SPEECH_SECONDS: a spoken realtime answer stops there. */
export function piecesWithinSpeechLimit(pieces: readonly string[], speed: number): number {
  let bytes = 0;
  for (const [index, piece] of pieces.entries()) {
    bytes += Buffer.byteLength(piece, 'utf8');
    if (speechSecondsOfBytes(bytes, speed) > MAX_SPEECH_SECONDS) return index;
  }
  return pieces.length;
}

// Turns a transcript into timed segments and words, and into the SRT and WebVTT subtitle formats.

/** One timed piece of a transcript. */
export interface Segment {
  id: number;
  start: number;
  end: number;
  text: string;
}

/** One timed word of a transcript (verbose_json `words`). */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** Sentences of the text, each given a share of the duration proportional to its length. */
export function segmentsOf(text: string, duration: number): Segment[] {
  const sentences = text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.trim() !== '');
  return timed(sentences, duration).map(({ piece, start, end }, id) => ({ id, start, end, text: piece }));
}

/** Words of the text (whitespace-separated), timed like segments; their times add up to the duration. */
export function wordsOf(text: string, duration: number): TimedWord[] {
  return timed(
    text.split(/\s+/).filter((word) => word !== ''),
    duration,
  ).map(({ piece, start, end }) => ({ word: piece, start, end }));
}

/** Consecutive time spans for `pieces`, each as long as its share of the characters. */
function timed(pieces: string[], duration: number): { piece: string; start: number; end: number }[] {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0) || 1;
  let at = 0;
  return pieces.map((piece) => {
    const start = at;
    at += (duration * piece.length) / total;
    return { piece, start: round(start), end: round(at) };
  });
}

export function toSrt(segments: Segment[]): string {
  return segments.map((s, i) => `${i + 1}\n${stamp(s.start, ',')} --> ${stamp(s.end, ',')}\n${s.text}\n`).join('\n');
}

export function toVtt(segments: Segment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${stamp(s.start, '.')} --> ${stamp(s.end, '.')}\n${s.text}\n`).join('\n')}`;
}

function stamp(seconds: number, separator: string): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

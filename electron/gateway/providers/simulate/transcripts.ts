// Turns a transcript into timed segments and into the SRT and WebVTT subtitle formats.

/** One timed piece of a transcript. */
export interface Segment {
  id: number;
  start: number;
  end: number;
  text: string;
}

/** Sentences of the text, each given a share of the duration proportional to its length. */
export function segmentsOf(text: string, duration: number): Segment[] {
  const sentences = text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.trim() !== '');
  const total = sentences.reduce((sum, sentence) => sum + sentence.length, 0) || 1;
  let at = 0;
  return sentences.map((sentence, id) => {
    const start = at;
    at += (duration * sentence.length) / total;
    return { id, start: round(start), end: round(at), text: sentence };
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

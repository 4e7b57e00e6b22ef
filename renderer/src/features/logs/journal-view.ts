// What the Logs page derives from a recorded call: its replay as curl, and the shape of a stream's timing.
import type { JournalEntry, StreamTiming } from '../../../../shared/journal.ts';
import { TOKEN_VARIABLE } from '../../api/chat-formats.ts';
import { curlCommand } from '../../api/curl.ts';

/** Recorded request headers worth sending again: the ones that change what the gateway does, not who the client was. */
const REPLAYED_HEADERS = /^(content-type|accept|anthropic-version|anthropic-beta|openai-beta|x-gatehouse-.+)$/;

/** Why a recorded call cannot be replayed as curl, or null when it can. */
export function replayProblem(entry: JournalEntry): 'binary' | 'truncated' | null {
  if (entry.request.bytes > 0 && entry.request.text === null) return 'binary';
  if (entry.request.truncated) return 'truncated';
  return null;
}

/**
 * The recorded call as a curl command against `baseUrl`. The token was never recorded: the command reads
 * it from `$TOKEN`, in the Authorization header every route accepts.
 */
export function journalCurl(entry: JournalEntry, baseUrl: string): string {
  const query = new URLSearchParams(entry.query).toString();
  const headers = Object.fromEntries(Object.entries(entry.requestHeaders).filter(([name]) => REPLAYED_HEADERS.test(name)));
  const hasBody = entry.request.bytes > 0 && entry.request.text !== null;
  return curlCommand({
    url: `${baseUrl}${entry.path}${query ? `?${query}` : ''}`,
    method: entry.method,
    rawHeaders: [`Authorization: Bearer ${TOKEN_VARIABLE}`],
    headers,
    ...(hasBody && { body: entry.request.text! }),
    stream: entry.stream,
  });
}

/** Figures of a stream's pacing, in milliseconds from the request's arrival. */
export interface StreamStats {
  firstByteMs: number;
  chunks: number;
  /** The longest wait between two writes (or before the first). */
  longestGapMs: number;
  /** Mean time between writes after the first; null with fewer than two. */
  meanGapMs: number | null;
  /** From the last write to the end of the call. */
  tailMs: number;
  /** Writes whose offsets were not kept (only the first 500 are). */
  untracked: number;
}

export function streamStats(timing: StreamTiming, durationMs: number): StreamStats {
  const offsets = timing.chunkOffsetsMs;
  let longestGapMs = offsets[0] ?? 0;
  for (let index = 1; index < offsets.length; index++) longestGapMs = Math.max(longestGapMs, offsets[index]! - offsets[index - 1]!);
  const last = offsets.at(-1);
  return {
    firstByteMs: timing.firstByteMs,
    chunks: timing.chunks,
    longestGapMs,
    meanGapMs: offsets.length >= 2 ? (last! - offsets[0]!) / (offsets.length - 1) : null,
    tailMs: last === undefined ? durationMs : Math.max(0, durationMs - last),
    untracked: Math.max(0, timing.chunks - offsets.length),
  };
}

/** Where each write falls along the call, as a fraction 0–1 of its duration. */
export function timelineMarks(timing: StreamTiming, durationMs: number): number[] {
  const span = Math.max(durationMs, timing.chunkOffsetsMs.at(-1) ?? 0, 1);
  return timing.chunkOffsetsMs.map((offset) => Math.min(1, Math.max(0, offset / span)));
}

/** A byte count as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

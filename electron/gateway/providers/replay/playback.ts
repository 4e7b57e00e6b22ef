// A recorded HTTP answer played back: its events (or blob chunks) at their recorded offsets divided by --replay-speed, or at once under 0.
import { CassetteError, type CassetteBlob, type HttpCassette } from '../../../../shared/cassette.ts';

/** How playback waits (real timers by default; a test passes one that moves its clock instead). */
export type ReplayWait = (ms: number, signal: AbortSignal) => Promise<void>;

export interface Playback {
  /** 1: recorded timing; 2: twice as fast; 0: no waiting at all. */
  speed: number;
  wait: ReplayWait;
  /** A blob's bytes, checked (see CassetteStore.blob). */
  blob(blob: CassetteBlob, owner: string): AsyncIterable<Uint8Array>;
}

const encoder = new TextEncoder();

/** The answer's bytes as recorded, each piece once its offset (scaled) has passed since the playback began. */
export async function* playBody(cassette: HttpCassette, file: string, playback: Playback, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const { response } = cassette;
  let at = 0;
  const until = async (atMs: number) => {
    const ms = playback.speed > 0 ? (atMs - at) / playback.speed : 0;
    at = Math.max(at, atMs);
    if (ms > 0) await playback.wait(ms, signal);
  };
  if (response.events) {
    for (const event of response.events) {
      await until(event.atMs);
      if (signal.aborted) return;
      yield encoder.encode(event.data);
    }
    return;
  }
  const body = response.body!;
  if (!('blob' in body)) {
    // A whole answer arrives once the recorded time has passed.
    await until(response.durationMs);
    if (signal.aborted) return;
    yield 'text' in body ? encoder.encode(body.text) : Buffer.from(body.base64, 'base64');
    return;
  }
  yield* rechunked(playback.blob(body.blob, file), response.chunks ?? [], until, signal, file);
}

/** A blob's bytes cut again into the recorded writes, each at its offset (the whole blob at the end when no writes were recorded). */
async function* rechunked(
  bytes: AsyncIterable<Uint8Array>,
  chunks: readonly { atMs: number; bytes: number }[],
  until: (atMs: number) => Promise<void>,
  signal: AbortSignal,
  file: string,
): AsyncGenerator<Uint8Array> {
  if (chunks.length === 0) {
    yield* bytes;
    return;
  }
  let index = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const piece of bytes) {
    pending.push(piece);
    pendingBytes += piece.length;
    while (index < chunks.length && pendingBytes >= chunks[index]!.bytes) {
      const size = chunks[index]!.bytes;
      const joined = Buffer.concat(pending);
      await until(chunks[index]!.atMs);
      if (signal.aborted) return;
      yield joined.subarray(0, size);
      pending = [joined.subarray(size)];
      pendingBytes = joined.length - size;
      index += 1;
    }
  }
  if (index < chunks.length || pendingBytes > 0) throw new CassetteError(file, 'response.chunks', 'do not add up to the blob recorded');
}

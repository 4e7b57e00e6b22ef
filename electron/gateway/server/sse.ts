// Writes streamed answers (SSE frames or a JSON array stream) with optional pacing and the stream faults `disconnect` and `malformed`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import type { NamedEvent } from '../protocols/named-event.ts';
import { streamFaultOf, paceOf } from './faults.ts';

/** Frames written before a `disconnect` or `malformed` fault strikes (fewer when the stream is shorter: never its last frame). */
export const FRAMES_BEFORE_FAULT = 3;

/** A frame written as-is: `data: [DONE]` of OpenAI streams. */
export const DONE = Symbol('done');

/**
 * Streams `events` as server-sent events: `event: <name>` when named, then `data: <json>` (or the raw
 * `[DONE]` marker). Return its promise from the route handler: it hijacks the reply, sends status 200 with
 * `content-type: text/event-stream`, `cache-control: no-cache` and `connection: keep-alive`, waits 1/N s
 * between frames for `x-gatehouse-pace: N`, applies the `disconnect` / `malformed` faults after
 * FRAMES_BEFORE_FAULT frames, and stops quietly when the client goes away.
 */
export async function writeSse(request: FastifyRequest, reply: FastifyReply, events: readonly (NamedEvent | typeof DONE)[]) {
  const frames = events.map((event) =>
    event === DONE ? 'data: [DONE]\n\n' : `${event.name ? `event: ${event.name}\n` : ''}data: ${JSON.stringify(event.data)}\n\n`,
  );
  await writeFrames(request, reply, 'text/event-stream; charset=utf-8', frames, '', '');
}

/** Streams `items` as one JSON array written element by element (Gemini's stream without `alt=sse`). */
export async function writeJsonArray(request: FastifyRequest, reply: FastifyReply, items: readonly unknown[]) {
  const frames = items.map((item, index) => `${index === 0 ? '' : ',\r\n'}${JSON.stringify(item)}`);
  await writeFrames(request, reply, 'application/json; charset=utf-8', frames, '[', ']');
}

async function writeFrames(
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  frames: readonly string[],
  open: string,
  close: string,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  // Headers set before the hijack (CORS, for one) go out too.
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': contentType,
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  let gone = false;
  raw.on('close', () => (gone = true));
  const fault = streamFaultOf(request);
  // A short stream is still broken before its last frame.
  const faultAt = Math.max(0, Math.min(FRAMES_BEFORE_FAULT, frames.length - 1));
  const delayMs = paceDelay(paceOf(request));
  if (open) raw.write(open);
  for (let i = 0; i < frames.length && !gone; i++) {
    if (fault && i === faultAt) {
      if (fault === 'malformed') {
        raw.end('data: {"malformed": tru\n\n');
      } else {
        // Let the frames already written reach the client, then cut the connection mid-stream.
        await new Promise((resolve) => raw.write('', resolve));
        raw.destroy();
      }
      return;
    }
    raw.write(frames[i]);
    // Pace goes between frames only: after the last one the stream ends at once, before clients that
    // stop reading at their end marker (the SDKs at `[DONE]`) hang up on an unfinished response.
    if (delayMs > 0 && i < frames.length - 1) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  if (!gone) raw.end(close);
}

/** Milliseconds between frames for a pace in tokens per second (0: as fast as possible). */
function paceDelay(tokensPerSecond: number | undefined): number {
  return tokensPerSecond && tokensPerSecond > 0 ? 1000 / tokensPerSecond : 0;
}

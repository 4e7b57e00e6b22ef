// Writes a relayed upstream answer to the caller as it arrives: its status and headers, then its bytes with backpressure (an answer the upstream sent whole at once, with its Content-Length); a break mid-stream ends with the protocol's error event.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.ts';
import type { CallContext, PassthroughProvider, PassthroughRequest, RelayedUsage } from '../providers/types.ts';
import { withRetryHint } from './retry-hint.ts';
import { holdForTick, sseFrame, writeFrame, type StreamFailure } from './sse.ts';

/**
 * Headers every relayed answer gets: its body is the upstream's, served from the gateway's origin, so a browser must
 * neither guess another type for it (an HTML page that could read the console's origin) nor run anything it holds.
 * API clients (JSON, SSE, audio) ignore both.
 */
export const RELAYED_BODY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/**
 * Forwards the call through `passthrough` and writes the upstream's answer raw. Return its promise from the route handler.
 * `charge` gets the usage and the channel that answered once the answer ended (finished, cut by the caller, or broken upstream); error answers are not charged.
 * An upstream that breaks off (or runs out of time) after the headers went out ends an event stream with `failure.errorEvent` and cuts
 * any other answer (the connection closes mid-body); nothing is retried.
 */
export async function relayReply(
  request: FastifyRequest,
  reply: FastifyReply,
  passthrough: PassthroughProvider,
  asked: PassthroughRequest,
  call: CallContext,
  failure: StreamFailure,
  charge?: (usage: RelayedUsage, channelId: string | undefined) => void,
): Promise<void> {
  const upstream = await passthrough.forward(asked, call);
  // The answer has gone out when its usage is known: a charge that fails is reported, never thrown out of the process.
  // One `then` with both handlers (no second promise for a `catch`); the charge's own failure is caught where it runs.
  void upstream.usage.then(
    (usage) => {
      try {
        if (usage && charge) charge(usage, upstream.channelId);
      } catch (error) {
        failure.report?.(error);
      }
    },
    (error: unknown) => failure.report?.(error),
  );
  reply.hijack();
  const raw = reply.raw;
  const sse = /text\/event-stream/i.test(upstream.headers['content-type'] ?? '');
  // Headers set before the hijack (CORS, for one) go out too.
  // An error answer says whether a retry can help, the upstream's own hint first.
  // One object for the head (Fastify's copy of its headers): no further copies of it.
  const head = Object.assign(
    reply.getHeaders() as OutgoingHttpHeaders,
    withRetryHint(upstream.status, upstream.headers),
    RELAYED_BODY_HEADERS,
  );
  head['x-accel-buffering'] = 'no';
  // The caller went away (the response closed before its end): the call's signal says so (`watchClient`), no listener of
  // its own per call.
  const signal = call.signal;
  const chunks = upstream.body[Symbol.asyncIterator]();
  let finished = false;
  // Any other answer keeps its latest chunk until the next one comes or the body ends: its last bytes and its end then
  // leave in one write (a short answer, head included, in one), where they were two (see holdForTick).
  let held: Uint8Array | undefined;
  try {
    // An answer the upstream already sent whole (a small JSON answer or a short stream: its head, body and end came in one
    // parse) leaves with its head in one write, ended in this turn, without a read per step. Its length is known, so it
    // goes with a Content-Length: no chunked framing to write, nor for the client to read.
    const whole = signal.aborted ? undefined : upstream.body.atOnce?.();
    if (whole !== undefined) {
      if (mayHaveBody(upstream.status)) head['content-length'] = whole.length;
      raw.writeHead(upstream.status, head);
      raw.end(whole.length > 0 ? whole : undefined);
      finished = true;
      void chunks.return?.();
      return;
    }
    raw.writeHead(upstream.status, head);
    if (sse) {
      // A stream's head leaves with whatever of its events is already here (see holdForTick), at the latest at the end of
      // this tick, as the upstream's did (a client learns the stream is open before its first event). Any other answer's
      // head leaves with its first bytes, and `end` writes all it holds in one piece: nothing to hold for them.
      holdForTick(raw);
      raw.flushHeaders();
    }
    while (!signal.aborted) {
      const next = await chunks.next();
      if (next.done) {
        finished = true;
        break;
      }
      if (sse) await writeFrame(raw, next.value);
      else {
        if (held) await writeFrame(raw, held);
        held = next.value;
      }
    }
    if (!signal.aborted) raw.end(held);
    // The answer went out (end writes at once): a body that left its usage to read after its end reads it now, in this
    // turn, so its charge is noted before the call's journal entry is made (providers/relay/relayed-body.ts).
    if (finished) void chunks.return?.();
  } catch (error) {
    finished = true;
    // A whole answer whose scrub or tap broke has no head out yet: it gets the one every other answer got before its body.
    if (!raw.headersSent) raw.writeHead(upstream.status, head);
    const gatewayError = error instanceof GatewayError ? error : undefined;
    if (!gatewayError) failure.report?.(error);
    if (!signal.aborted && sse && failure.errorEvent) {
      raw.write(sseFrame(failure.errorEvent(gatewayError ?? new GatewayError('upstream_failed', 'The relayed stream failed.'))));
    }
    // A stream ends after its error event; any other answer is cut (the connection closes before its end), never passed off as whole.
    if (!signal.aborted) {
      if (sse) raw.end();
      else {
        if (held) raw.write(held);
        raw.destroy();
      }
    }
  } finally {
    // The caller left: the upstream request stops (and the usage seen so far is charged).
    if (!finished) await chunks.return?.();
  }
}

/** Whether an answer with `status` may carry a body, and so a Content-Length (204 and 304 must not: RFC 9110 8.6). */
function mayHaveBody(status: number): boolean {
  return status !== 204 && status !== 304;
}

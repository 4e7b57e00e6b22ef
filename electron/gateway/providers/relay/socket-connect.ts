// One upstream WebSocket handshake: given up when it takes longer than the channel's timeout, abandoned when the caller goes away.
import WebSocket from 'ws';
import { GatewayError } from '../../errors.ts';
import { scrubbedHead } from './key-scrub.ts';
import { callerGone } from './upstream-fetch.ts';

/** Most of a refused upgrade's body read for its error message. */
const ERROR_BODY_LIMIT = 16 * 1024;

/** What a handshake sends: headers (the credential among them), the subprotocols offered, and the largest frame accepted from upstream. */
export interface SocketInit {
  headers: Record<string, string>;
  protocols: readonly string[];
  maxPayload: number;
  /** The channel's key: hidden in a refusal's body before it is cut into a message. */
  key: string | null;
}

/** A handshake that failed: the upstream's HTTP status when it answered the upgrade with one, else null (connection error, timeout). */
export class HandshakeFailure extends GatewayError {
  readonly upgradeStatus: number | null;
  constructor(status: number | null, message: string) {
    super('upstream_failed', message);
    this.upgradeStatus = status;
  }
}

/**
 * Opens a WebSocket to `url` with `init`. Resolves with the open socket, paused (`resume()` it once listening; its `error` events
 * are already caught: later failures show as its `close`). Rejects with a HandshakeFailure (a message fit to show) when the connection fails, the upstream
 * answers the upgrade with an HTTP status, or the handshake is not over within `timeoutMs` (a silence or the whole of it); with `callerGone()` when `signal` fires first.
 */
export function connectSocket(url: string, init: SocketInit, timeoutMs: number, signal: AbortSignal): Promise<WebSocket> {
  if (signal.aborted) return Promise.reject(callerGone());
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, [...init.protocols], {
      headers: init.headers,
      handshakeTimeout: timeoutMs,
      maxPayload: init.maxPayload,
      perMessageDeflate: false,
      followRedirects: false,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(whole);
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    // `handshakeTimeout` times the socket's silences only: an upstream that trickles its refusal a few bytes at a time is
    // given `timeoutMs` for the whole handshake too.
    // A refusal whose body is still arriving then: refused with its status and what of its body came.
    let refused: (() => void) | undefined;
    const whole = setTimeout(() => {
      if (refused) return refused();
      settle(() => {
        socket.terminate();
        reject(new HandshakeFailure(null, `no handshake answer within ${timeoutMs} ms`));
      });
    }, timeoutMs);
    const onAbort = () =>
      settle(() => {
        socket.terminate();
        reject(callerGone());
      });
    signal.addEventListener('abort', onAbort, { once: true });
    // Never unhandled: before the open it fails the handshake, after it the `close` that follows tells the relay.
    socket.on('error', (error: Error & { code?: string }) =>
      settle(() => {
        const timedOut = /timed out/i.test(error.message);
        reject(
          new HandshakeFailure(
            null,
            timedOut ? `no handshake answer within ${timeoutMs} ms` : `connection failed (${error.code ?? error.message})`,
          ),
        );
      }),
    );
    // The upstream refused the upgrade with an HTTP answer: its status, and the message of its error body (read up to a limit).
    socket.once('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? null;
      const parts: Buffer[] = [];
      let size = 0;
      let ended = false;
      const done = () =>
        settle(() => {
          response.destroy();
          socket.terminate();
          const message = errorMessage(Buffer.from(scrubbedHead(Buffer.concat(parts), ERROR_BODY_LIMIT, ended, init.key)));
          reject(new HandshakeFailure(status, `HTTP ${status ?? 'error'} on the upgrade${message ? `: ${message}` : ''}`));
        });
      response.on('data', (chunk: Buffer) => {
        parts.push(chunk);
        size += chunk.length;
        if (size >= ERROR_BODY_LIMIT) done();
      });
      refused = done;
      response.once('end', () => {
        ended = true;
        done();
      });
      response.once('error', done);
      response.once('close', done);
    });
    // Paused at once, so no event that came with the handshake is emitted before the caller listens.
    socket.once('open', () =>
      settle(() => {
        socket.pause();
        resolve(socket);
      }),
    );
  });
}

/** The `error.message` (or `message`) of a JSON error body, else its text; empty when there is none. Cut to 500 characters. */
function errorMessage(body: Buffer): string {
  const text = body.toString('utf8').trim();
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'object' ? json.error?.message : (json.error ?? json.message);
    if (typeof message === 'string') return message.slice(0, 500);
  } catch {
    // Not JSON: the text itself.
  }
  return text.slice(0, 500);
}

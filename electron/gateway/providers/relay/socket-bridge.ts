// Joins a client WebSocket to an upstream one: frames pass both ways as they came (text or binary), with backpressure, and a close on either side closes the other.
import type { RawData, WebSocket } from 'ws';
import { guarded, type ReportError } from '../../safe-events.ts';

/** Bytes queued toward one side beyond which the other side is no longer read (until the queue is down to a quarter of it). */
export const BRIDGE_HIGH_WATER = 4 * 1024 * 1024;
/** Most bytes of client frames held while the upstream is being opened (the client is paused meanwhile, so only what was in flight arrives); over it the client is closed with 1008. */
export const BRIDGE_HOLD_LIMIT = 32 * 1024 * 1024;
/** Close code sent to the client when the upstream went away without one (or failed): 1014, "bad gateway". */
export const UPSTREAM_LOST_CODE = 1014;

/**
 * An upstream frame passed on to the client, then an event the gateway sends the client after it and one it sends the
 * upstream; with `close`, the session then ends (the client closed with that code, the upstream at once).
 */
export interface PassedWithAnswers {
  text: string;
  client: string;
  upstream: string;
  close?: { code: number; reason: string };
}

/** Rewrites text frames on their way (the model's name, usage read); binary frames pass untouched, but for `scrub`. */
export interface BridgeRoute {
  /** Everything the upstream sends (a frame of either kind, a close reason) before it is read or passed on: a secret it holds hidden. */
  scrub(data: Buffer): Buffer;
  /** The text the client gets, or that text with an event for each side to follow it (a response stopped). */
  fromUpstream(text: string): string | PassedWithAnswers;
  /** The text sent upstream, or an answer sent back to the client instead. */
  fromClient(text: string): string | { answer: string };
  /** The session ended (the first side closed): called once. */
  ended(): void;
  /** Optional: each frame as it passes, a client's as the client sent it, an upstream's as the client gets it (a recording). */
  seen?(from: 'client' | 'upstream', data: Buffer | string, binary: boolean): void;
  /** Optional: which side closed first, with its code and reason (before `ended`). */
  closedBy?(from: 'client' | 'upstream', code: number, reason: string): void;
}

type Frame = { data: Buffer; binary: boolean };

/**
 * Holds `client`'s frames from construction (the client is paused) until `join` gives it an upstream, then relays both ways.
 * `drop` gives the client back untouched (no upstream opened). Every listener is guarded: a failure is reported, never thrown.
 */
export class SocketBridge {
  private readonly client: WebSocket;
  private readonly report: ReportError;
  private held: Frame[] = [];
  private heldBytes = 0;
  private upstream: WebSocket | undefined;
  private route: BridgeRoute | undefined;
  private ended = false;
  private readonly onClientMessage: (data: RawData, binary: boolean) => void;
  private readonly onClientClose: (code: number, reason: Buffer) => void;

  constructor(client: WebSocket, report: ReportError) {
    this.client = client;
    this.report = report;
    this.onClientMessage = guarded(report, (data: RawData, binary: boolean) => this.fromClient(toBuffer(data), binary));
    this.onClientClose = guarded(report, (code: number, reason: Buffer) => this.clientClosed(code, reason));
    client.on('message', this.onClientMessage);
    client.on('close', this.onClientClose);
    client.pause();
  }

  /** True once the client went away. */
  get clientGone(): boolean {
    return this.client.readyState !== this.client.OPEN;
  }

  /** Relays between the client and the open, paused `upstream` from now on: the held frames first. */
  join(upstream: WebSocket, route: BridgeRoute): void {
    this.upstream = upstream;
    this.route = route;
    upstream.on(
      'message',
      guarded(this.report, (data: RawData, binary: boolean) => this.fromUpstream(toBuffer(data), binary)),
    );
    let failure: (Error & { code?: string }) | undefined;
    upstream.on('error', (error: Error & { code?: string }) => (failure = error));
    upstream.on(
      'close',
      guarded(this.report, (code: number, reason: Buffer) => this.upstreamClosed(code, route.scrub(reason).toString('utf8'), failure)),
    );
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const frame of held) this.fromClient(frame.data, frame.binary);
    if (this.clientGone) {
      this.clientClosed(1001, Buffer.from('client went away'));
      return;
    }
    this.client.resume();
    upstream.resume();
  }

  /** Stops holding: the client's listeners are removed and it is read again, for the caller to answer and close. */
  drop(): void {
    this.client.off('message', this.onClientMessage);
    this.client.off('close', this.onClientClose);
    this.held = [];
    this.client.resume();
  }

  private fromClient(data: Buffer, binary: boolean): void {
    const upstream = this.upstream;
    if (!upstream || !this.route) {
      this.heldBytes += data.length;
      if (this.heldBytes > BRIDGE_HOLD_LIMIT) {
        this.held = [];
        this.client.close(1008, 'too much sent before the upstream session opened');
        return;
      }
      this.held.push({ data, binary });
      return;
    }
    if (upstream.readyState !== upstream.OPEN) return;
    this.route.seen?.('client', data, binary);
    // A binary frame is read as text too: an upstream that takes its JSON must not get a response the caller may not pay for.
    const passed = this.route.fromClient(data.toString('utf8'));
    if (typeof passed === 'object' && 'answer' in passed) send(this.client, passed.answer, false, upstream);
    else send(upstream, binary ? data : passed, binary, this.client);
  }

  private fromUpstream(data: Buffer, binary: boolean): void {
    if (this.client.readyState !== this.client.OPEN || !this.route || !this.upstream) return;
    const clean = this.route.scrub(data);
    const passed = binary ? clean : this.route.fromUpstream(clean.toString('utf8'));
    const answered = typeof passed === 'string' || Buffer.isBuffer(passed) ? undefined : passed;
    const frame = answered ? answered.text : (passed as Buffer | string);
    this.route.seen?.('upstream', frame, binary);
    send(this.client, frame, binary, this.upstream);
    if (!answered) return;
    send(this.client, answered.client, false, this.upstream);
    send(this.upstream, answered.upstream, false, this.client);
    if (!answered.close) return;
    const reason = shortReason(answered.close.reason);
    this.client.close(answered.close.code, reason);
    // The upstream at once (its cancel sent first): a client slow to answer the close must not keep turns going upstream.
    this.upstream.close(1000, reason);
  }

  private clientClosed(code: number, reason: Buffer): void {
    const upstream = this.upstream;
    if (!upstream) return;
    if (!this.ended) this.route?.closedBy?.('client', code, reason.toString('utf8'));
    this.end();
    // The client left: the upstream session is closed at once, with the client's code where it may be sent on.
    if (upstream.readyState === upstream.OPEN || upstream.readyState === upstream.CONNECTING) {
      upstream.close(sendable(code) ? code : 1000, shortReason(reason.toString('utf8')));
    }
  }

  private upstreamClosed(code: number, reason: string, failure: (Error & { code?: string }) | undefined): void {
    if (!this.ended) this.route?.closedBy?.('upstream', code, reason);
    this.end();
    if (this.client.readyState !== this.client.OPEN) return;
    if (failure?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') this.client.close(1009, 'an upstream event was too big');
    else if (failure || !sendable(code))
      this.client.close(code === 1005 ? 1000 : UPSTREAM_LOST_CODE, shortReason(reason || 'the upstream connection was lost'));
    else this.client.close(code, shortReason(reason));
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.route?.ended();
  }
}

/** Sends one frame to `to`, pausing `from` while `to` has more than BRIDGE_HIGH_WATER queued, resuming it once that drained. */
function send(to: WebSocket, data: Buffer | string, binary: boolean, from: WebSocket): void {
  to.send(data, { binary }, () => {
    if (from.isPaused && to.bufferedAmount <= BRIDGE_HIGH_WATER / 4) from.resume();
  });
  if (to.bufferedAmount > BRIDGE_HIGH_WATER && !from.isPaused) from.pause();
}

/** A WebSocket message's bytes as one Buffer. */
export function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/** Whether a close code may be sent in a close frame (1005 and 1006 are only ever reported, never sent). */
function sendable(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

/** A close reason cut to the 123 bytes a close frame holds (whole characters only). */
function shortReason(reason: string): string {
  let cut = reason;
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  return cut;
}

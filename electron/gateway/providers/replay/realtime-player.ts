// Plays recorded realtime sessions to a client: the upstream's frames in order, each after the client frame it followed and at its recorded offset, while the client's frames keep matching a recording.
import type { RawData, WebSocket } from 'ws';
import { guarded } from '../../safe-events.ts';
import { RealtimeEvents } from '../relay/openai/realtime-events.ts';
import { toBuffer } from '../relay/socket-bridge.ts';
import type { RealtimeRelayRequest } from '../types.ts';
import type { ReplayWait } from './playback.ts';

/** One frame of a recorded session, its payload read (blobs included). */
export interface PlayedFrame {
  from: 'client' | 'upstream';
  atMs: number;
  data: string | Buffer;
  binary: boolean;
}

/** A recorded session as the player reads it: its frames in order and, when the upstream ended it, how. */
export interface PlayedSession {
  /** The cassette's file name (for the journal and for a mismatch's message), and when it was recorded. */
  file: string;
  recordedAt: string;
  frames: readonly PlayedFrame[];
  upstreamClose?: { code: number; reason: string };
}

/** Close code of a replayed session whose client left every recording (1008: policy violation). */
export const REPLAY_MISMATCH_CODE = 1008;

/** How two client frames differ: undefined when they match, else the first differing field (e.g. `session.instructions`). */
export type FrameDiffer = (recorded: PlayedFrame, given: { data: Buffer; binary: boolean }) => string | undefined;

/**
 * Answers one client as the recordings did. `sessions` are the candidates in recorded order (the first one that stays
 * consistent with the client's frames plays); `speed` divides every recorded wait (0: none), `wait` waits (real timers, or a test's clock). Usage is billed through
 * `request.charge` as each recorded `response.done` passes, and a `response.create` the caller may not pay for is
 * answered with `request.admit`'s refusal, its recorded answer skipped.
 */
export class RealtimePlayer {
  private readonly client: WebSocket;
  private readonly request: RealtimeRelayRequest;
  private readonly speed: number;
  private readonly differ: FrameDiffer;
  private readonly wait: ReplayWait;
  private readonly events: RealtimeEvents;
  private readonly stop = new AbortController();
  private candidates: PlayedSession[];
  /** Client frames matched so far. */
  private matched = 0;
  /** Frames waiting to be sent, each with its recorded wait after the one before it (or after the client frame it followed). */
  private readonly queue: { waitMs: number; frame: PlayedFrame | 'close' }[] = [];
  private pumping = false;

  constructor(
    client: WebSocket,
    sessions: PlayedSession[],
    options: { request: RealtimeRelayRequest; speed: number; wait: ReplayWait; differ: FrameDiffer; model: string },
  ) {
    this.client = client;
    this.request = options.request;
    this.speed = options.speed;
    this.differ = options.differ;
    this.wait = options.wait;
    this.candidates = sessions;
    // What was recorded plays: a response the recording's upstream started is not asked about (`started`), so it is billed
    // as it passes, with no hold before it.
    const { charge, admit } = options.request;
    this.events = new RealtimeEvents(options.model, options.model, { charge, admit });
  }

  /** The session that plays now. */
  get playing(): PlayedSession {
    return this.candidates[0]!;
  }

  /** Starts: the frames the upstream sent before the client's first one are queued from now; the client is listened to. */
  start(): void {
    const report = this.request.report;
    this.client.on(
      'message',
      guarded(report, (data: RawData, binary: boolean) => this.fromClient(toBuffer(data), binary)),
    );
    this.client.on(
      'close',
      guarded(report, () => this.end()),
    );
    this.schedule(this.playing, -1, 0);
  }

  private fromClient(data: Buffer, binary: boolean): void {
    if (this.stop.signal.aborted) return;
    const index = this.matched;
    const fitting = this.candidates.filter((session) => {
      const recorded = clientFrames(session)[index];
      return recorded !== undefined && this.differ(recorded, { data, binary }) === undefined;
    });
    if (fitting.length === 0) {
      this.mismatch(index, data, binary);
      return;
    }
    this.candidates = fitting;
    this.matched++;
    const session = this.playing;
    // A binary frame is read as text too, as the relay reads it.
    const passed = this.events.fromClient(data.toString('utf8'));
    if (typeof passed === 'object') {
      // The caller may no longer spend: refused here, and the recorded answer to this frame is not played.
      this.send(passed.answer, false);
      return;
    }
    const recorded = clientFrames(session)[index]!;
    this.schedule(session, session.frames.indexOf(recorded), recorded.atMs);
  }

  /** Queues the upstream frames after frame `after` of `session` up to its next client frame, each its recorded time after the one before (the first: after `since`). */
  private schedule(session: PlayedSession, after: number, since: number): void {
    let previous = since;
    let position = after + 1;
    for (; position < session.frames.length; position++) {
      const frame = session.frames[position]!;
      if (frame.from === 'client') break;
      this.queue.push({ waitMs: Math.max(0, frame.atMs - previous), frame });
      previous = Math.max(previous, frame.atMs);
    }
    if (position >= session.frames.length && session.upstreamClose) this.queue.push({ waitMs: 0, frame: 'close' });
    this.pump().catch(this.request.report);
  }

  /** Sends the queued frames in order, each after its wait divided by the speed (none at speed 0). */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.stop.signal.aborted) {
        const { waitMs, frame } = this.queue.shift()!;
        if (this.speed > 0 && waitMs > 0) await this.wait(waitMs / this.speed, this.stop.signal);
        if (this.stop.signal.aborted) return;
        if (frame === 'close') {
          const close = this.playing.upstreamClose!;
          this.end();
          if (this.client.readyState === this.client.OPEN) this.client.close(close.code, close.reason);
          return;
        }
        const { data, binary } = frame;
        if (binary) this.send(data, binary);
        else {
          // Without `started`, no response is stopped: an upstream frame passes as its text alone.
          const passed = this.events.fromUpstream(typeof data === 'string' ? data : data.toString('utf8'));
          this.send(typeof passed === 'string' ? passed : passed.text, binary);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private send(data: string | Buffer, binary: boolean): void {
    if (this.client.readyState === this.client.OPEN) this.client.send(data, { binary });
  }

  /** The client left every recording: told with an `error` event naming where it differs from the one that played, then closed. */
  private mismatch(index: number, data: Buffer, binary: boolean): void {
    const session = this.playing;
    const recorded = clientFrames(session)[index];
    const where = recorded
      ? `client event ${index + 1} differs at ${this.differ(recorded, { data, binary })}`
      : `the recording has only ${index} client events`;
    const message = `No recorded realtime session matches this one (closest: ${session.file}; ${where}).`;
    this.send(
      JSON.stringify({
        type: 'error',
        event_id: `event_replay_${index}`,
        error: { type: 'invalid_request_error', code: 'cassette_mismatch', message, param: null, event_id: null },
      }),
      false,
    );
    this.end();
    if (this.client.readyState === this.client.OPEN) this.client.close(REPLAY_MISMATCH_CODE, 'no recorded session matches');
  }

  /** The session ended: nothing more is sent, and a response cut off is billed for what it delivered. */
  private end(): void {
    if (this.stop.signal.aborted) return;
    this.stop.abort();
    this.queue.length = 0;
    this.events.end();
  }
}

/** The client frames of each session, in order, listed once. */
const CLIENT_FRAMES = new WeakMap<PlayedSession, PlayedFrame[]>();

function clientFrames(session: PlayedSession): PlayedFrame[] {
  let frames = CLIENT_FRAMES.get(session);
  if (!frames) {
    frames = session.frames.filter((frame) => frame.from === 'client');
    CLIENT_FRAMES.set(session, frames);
  }
  return frames;
}

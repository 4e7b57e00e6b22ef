// Records a relayed realtime session as one cassette: every frame both ways with its offset from the session's opening, big frames as blobs beside it, then the close.
import type { CassetteBody, RealtimeCassette } from '../../../../shared/cassette.ts';
import { rfc3339, type Clock } from '../../time.ts';
import type { ReportError } from '../../safe-events.ts';
import type { CassetteRecorder, RealtimeTape } from '../types.ts';
import { realtimeCall } from './realtime-replay.ts';

/** Largest frame kept inline in a realtime cassette; a bigger one (long audio) is a blob beside it. */
export const REALTIME_INLINE_FRAME_BYTES = 16 * 1024;
/** Inline bytes of one realtime cassette; past them every further frame is a blob (the cassette stays readable). */
export const REALTIME_INLINE_BUDGET_BYTES = 4 * 1024 * 1024;
/** Most bytes of frames one recorded session holds; past them the session goes on but is not recorded. */
export const MAX_RECORDED_SESSION_BYTES = 64 * 1024 * 1024;

type Frame = { atMs: number; from: 'client' | 'upstream'; data: Buffer | string; binary: boolean };

/** The tape of one session of `model`, saved through `recorder` when it ends (`mode`: relayed, or simulated under --record-simulated). */
export class RealtimeSessionTape implements RealtimeTape {
  private readonly recorder: CassetteRecorder;
  private readonly model: string;
  private readonly clock: Clock;
  private readonly report: ReportError;
  private started = 0;
  private channel: { name: string; upstreamModel: string } | undefined;
  private frames: Frame[] = [];
  private bytes = 0;
  private close: RealtimeCassette['close'];
  private done = false;

  constructor(recorder: CassetteRecorder, model: string, clock: Clock, report: ReportError) {
    this.recorder = recorder;
    this.model = model;
    this.clock = clock;
    this.report = report;
  }

  opened(channel: { name: string; upstreamModel: string }): void {
    this.channel = channel;
    this.started = performance.now();
  }

  frame(from: 'client' | 'upstream', data: Buffer | string, binary: boolean): void {
    if (this.done) return;
    this.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (this.bytes > MAX_RECORDED_SESSION_BYTES) {
      // Too long to keep: the session goes on, the recording is dropped (a cassette is whole or not at all).
      this.done = true;
      this.frames = [];
      return;
    }
    this.frames.push({ atMs: this.offset(), from, data, binary });
  }

  closed(from: 'client' | 'upstream', code: number, reason: string): void {
    this.close = { atMs: this.offset(), from, code, reason };
  }

  ended(): void {
    if (this.done || !this.channel) return;
    this.done = true;
    this.save().catch(this.report);
  }

  private offset(): number {
    return Math.max(0, Math.round(performance.now() - this.started));
  }

  private async save(): Promise<void> {
    const { recorder, channel } = this;
    let inline = 0;
    const frames: RealtimeCassette['frames'] = [];
    for (const frame of this.frames) {
      const bytes = typeof frame.data === 'string' ? Buffer.from(frame.data, 'utf8') : frame.data;
      const kept = bytes.length <= REALTIME_INLINE_FRAME_BYTES && inline + bytes.length <= REALTIME_INLINE_BUDGET_BYTES;
      if (kept) inline += bytes.length;
      const at = { atMs: frame.atMs, from: frame.from };
      if (frame.binary) {
        const body: CassetteBody = kept ? { base64: bytes.toString('base64') } : { blob: await recorder.saveBlob(bytes) };
        frames.push({ ...at, binary: body });
      } else if (kept) {
        frames.push({ ...at, text: bytes.toString('utf8') });
      } else {
        frames.push({ ...at, textBlob: await recorder.saveBlob(bytes) });
      }
    }
    const usage = usageOf(this.frames);
    await recorder.save({
      kind: 'realtime',
      recording: {
        recordedAt: rfc3339(this.clock.now()),
        mode: 'relay',
        channel: channel!.name,
        upstreamModel: channel!.upstreamModel,
        protocol: 'realtime',
      },
      request: recorder.requestOf(realtimeCall(this.model)),
      frames,
      ...(this.close && { close: this.close }),
      ...(usage && { usage }),
    });
  }
}

/** The usage of the session's `response.done` events, summed (what the relay billed); undefined when none came. */
function usageOf(frames: readonly Frame[]): { inputTokens: number; outputTokens: number } | undefined {
  let found = false;
  const usage = { inputTokens: 0, outputTokens: 0 };
  for (const frame of frames) {
    if (frame.from !== 'upstream' || frame.binary || !frame.data.includes('response.done')) continue;
    try {
      const event = JSON.parse(frame.data.toString()) as { type?: unknown; response?: { usage?: Record<string, unknown> } };
      if (event.type !== 'response.done') continue;
      found = true;
      usage.inputTokens += Number(event.response?.usage?.['input_tokens']) || 0;
      usage.outputTokens += Number(event.response?.usage?.['output_tokens']) || 0;
    } catch {
      // Not JSON: nothing to count.
    }
  }
  return found ? usage : undefined;
}

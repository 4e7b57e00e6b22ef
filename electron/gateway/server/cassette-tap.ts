// `--record DIR`: watches each API answer as it is written (status, headers, every write with its offset from the request's arrival) and hands a relayed one (or, with --record-simulated, a simulated one) to the recorder once it ended whole.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MAX_INLINE_BODY_BYTES, type CassetteUsage } from '../../../shared/cassette.ts';
import type { CallNotes } from '../principal.ts';
import type { CassetteRecorder, RecordedCall } from '../providers/types.ts';
import { calledPath } from './call-context.ts';
import { isJournaledPath, modelOf } from './journal-capture.ts';
import { pathOf } from './protocol.ts';
import { NO_HEADERS, sentHeaders, tapWrites, watchHead } from './write-tap.ts';
import { isUpgrade } from './socket-scope.ts';

/** Content types a cassette keeps inline as text. */
const TEXTUAL = /json|text\/|event-stream|xml|x-ndjson/i;

/** The recorder's part the tap uses. */
export type TapRecorder = Pick<CassetteRecorder, 'recordHttp' | 'openBlob' | 'simulated'>;

/** The call a request became, or undefined when no route made one of it (refused before, a listing, the console). */
export function recordedCallOf(request: FastifyRequest): RecordedCall | undefined {
  const kind = request.callKind;
  if (!kind) return undefined;
  const path = calledPath(request);
  const body = request.receivedBody?.json ? (request.body as unknown) : undefined;
  const stream = (typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true) || path.includes(':stream');
  return {
    protocol: kind.protocol,
    method: request.method,
    path,
    endpoint: kind.endpoint,
    model: modelOf(path, body),
    ...(body !== undefined && { body }),
    stream,
  };
}

/**
 * Adds the hook (before authentication, so the call's notes it wraps are the ones services charge). Fixture and replayed
 * answers are never recorded, nor an answer cut short (the client left, the connection broke): only whole exchanges.
 */
export function installCassetteTap(app: FastifyInstance, recorder: TapRecorder, report: (error: unknown) => void): void {
  // The cassettes of answers already sent are being written: closing waits for them, so a stopped gateway's folder is whole.
  const writing = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...writing]);
  });
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (!isJournaledPath(path) || request.method === 'OPTIONS' || isUpgrade(request)) return;
    const startedAt = performance.now();
    let fixture = false;
    let usage: CassetteUsage | undefined;
    const inner = request.callNotes;
    const notes: CallNotes = {
      charged: (charge) => {
        usage = {
          inputTokens: (usage?.inputTokens ?? 0) + charge.inputTokens,
          outputTokens: (usage?.outputTokens ?? 0) + charge.outputTokens,
          amountMicros: (usage?.amountMicros ?? 0) + charge.amountMicros,
        };
        inner?.charged(charge);
      },
      firstOutput: () => inner?.firstOutput(),
      note: (text) => inner?.note(text),
      fixture: (label) => {
        fixture = true;
        inner?.fixture?.(label);
      },
    };
    request.callNotes = notes;
    const raw: ServerResponse = reply.raw;
    // Decided at the answer's head: whether this exchange is recorded at all (else nothing is held).
    let call: RecordedCall | undefined;
    let relay: { channel: string; upstreamModel?: string } | undefined;
    let headHeaders: object = NO_HEADERS;
    const held: { atMs: number; bytes: Uint8Array }[] = [];
    let heldBytes = 0;
    let spill: { sink: ReturnType<TapRecorder['openBlob']>; chunks: { atMs: number; bytes: number }[] } | undefined;
    const decide = () => {
      const relayed = request.journalRelay;
      if (fixture || request.journalReplay || !request.principal) return undefined;
      // Portrait and 3D calls are recorded as cassettes of their own kinds (the review's or the task's course), never as HTTP ones.
      if (request.callKind?.protocol === 'portrait' || request.callKind?.protocol === 'tasks3d') return undefined;
      if (relayed && !relayed.channel) return undefined; // every channel failed: the gateway's own error, not an upstream's answer
      if (!relayed && !recorder.simulated) return undefined;
      if (relayed) relay = { channel: relayed.channel!, ...(relayed.upstreamModel && { upstreamModel: relayed.upstreamModel }) };
      return recordedCallOf(request);
    };
    const headers = (): Record<string, string> => sentHeaders(raw, headHeaders);
    let decided = false;
    const note = (chunk: unknown, encoding?: unknown) => {
      if (!decided) {
        decided = true;
        call = decide();
      }
      if (!call || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const bytes = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      if (bytes.length === 0) return;
      const atMs = Math.round(performance.now() - startedAt);
      if (!spill && (heldBytes + bytes.length > MAX_INLINE_BODY_BYTES || !TEXTUAL.test(headers()['content-type'] ?? ''))) {
        spill = { sink: recorder.openBlob(call), chunks: [] };
        for (const write of held.splice(0)) {
          spill.sink.write(write.bytes);
          spill.chunks.push({ atMs: write.atMs, bytes: write.bytes.length });
        }
      }
      // A copy: the writer may reuse its buffer once the write returns.
      const kept = Uint8Array.from(bytes);
      if (spill) {
        spill.sink.write(kept);
        spill.chunks.push({ atMs, bytes: kept.length });
      } else {
        held.push({ atMs, bytes: kept });
        heldBytes += kept.length;
      }
    };
    watchHead(raw, (given) => (headHeaders = given));
    tapWrites(raw, note);
    raw.once('close', () => {
      const whole = raw.writableFinished;
      const durationMs = Math.round(performance.now() - startedAt);
      // The charge of a relayed answer follows its last byte by a turn or two of the event loop.
      const written = new Promise<void>((resolve) => setImmediate(() => resolve(save(whole, durationMs))));
      writing.add(written);
      void written.finally(() => writing.delete(written));
    });
    /** Hands the ended exchange to the recorder (or drops what was held of one cut short); settles once it is written. */
    const save = async (whole: boolean, durationMs: number): Promise<void> => {
      if (!call || !whole) {
        await spill?.sink.end().catch(() => undefined);
        return;
      }
      const recorded = call;
      const answer = { status: raw.statusCode, headers: headers(), durationMs };
      const ended = spill ? spill.sink.end().then((blob) => ({ blob, chunks: spill!.chunks })) : Promise.resolve(undefined);
      await ended
        .then((spilled) =>
          recorder.recordHttp({
            call: recorded,
            ...(relay && { relay }),
            response: answer,
            writes: held,
            ...(usage && { usage }),
            ...(spilled && { spilled }),
          }),
        )
        .catch(report);
    };
  });
}

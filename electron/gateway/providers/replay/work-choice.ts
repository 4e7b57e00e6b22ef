// Cassettes for the calls HTTP cassettes cannot answer: realtime sessions (recorded and replayed whole) and the creation of portrait assets and 3D tasks (whose course replays on the gateway's clock).
import { GatewayError } from '../../errors.ts';
import type { ReportError } from '../../safe-events.ts';
import type { Clock } from '../../time.ts';
import type { ScriptedWork } from '../fixtures/scripted-work.ts';
import type { CallContext, CassetteDeck, CassetteShelf, ProviderBundle } from '../types.ts';
import { MAX_REALTIME_CANDIDATES } from './limits.ts';
import { realtimeCall, replayRealtime } from './realtime-replay.ts';
import { RealtimeSessionTape } from './realtime-tape.ts';
import type { Playback } from './playback.ts';
import { portraitCall, ReviewTapes } from './review-tape.ts';
import { task3dCall, Task3dTapes } from './task3d-tape.ts';
import { workReplayBundle } from './work-replay.ts';

/** The recorders of portrait reviews and 3D tasks, shared by the service channels and (with `--record-simulated`) the simulator. */
export interface WorkTapes {
  reviews: ReviewTapes;
  tasks: Task3dTapes;
}

export function workTapes(deck: CassetteDeck, clock: Clock, report: ReportError): WorkTapes | undefined {
  if (!deck.recorder) return undefined;
  return { reviews: new ReviewTapes(deck.recorder, clock, report), tasks: new Task3dTapes(deck.recorder, clock, report) };
}

/** `simulate` with its reviewer and 3D upstream recorded, under `--record-simulated`; else `simulate` itself. */
export function recordingSimulator(simulate: ProviderBundle, deck: CassetteDeck, tapes: WorkTapes | undefined): ProviderBundle {
  if (!tapes || !deck.recorder?.simulated) return simulate;
  return {
    ...simulate,
    reviewer: tapes.reviews.wrap(simulate.reviewer, { mode: 'simulate' }),
    mesh3d: tapes.tasks.wrap(simulate.mesh3d, { mode: 'simulate' }),
  };
}

/** What replay decided for a call: answer it from a cassette, refuse it (a miss under `--replay-miss error`), or leave it to the others. */
export type WorkDecision = { answer: ProviderBundle } | { refuse: GatewayError } | undefined;

export class WorkCassettes {
  private readonly decided = new WeakMap<CallContext, WorkDecision>();
  private readonly deck: CassetteDeck;
  private readonly work: ScriptedWork;
  private readonly clock: Clock;
  private readonly playback: Playback | undefined;
  /** `playback`: how replayed sessions wait (present under `--replay`). */
  constructor(deck: CassetteDeck, work: ScriptedWork, clock: Clock, playback?: Playback) {
    this.deck = deck;
    this.work = work;
    this.clock = clock;
    this.playback = playback;
  }

  /**
   * Under `--replay`, the bundle of a realtime session, portrait registration or 3D task creation a cassette answers (or,
   * under `--replay-miss error`, the refusal of one none answers); undefined for other calls and for misses the other providers take.
   */
  replay(call: CallContext, model: string, general: ProviderBundle): WorkDecision {
    const { shelf } = this.deck;
    const playback = this.playback;
    // Without --replay nothing is replayed: no decision to keep, so none is kept per call.
    if (!shelf || !playback) return undefined;
    // Decided once per call: a service that asks again gets the same cassette (a sequence counts each call once).
    if (this.decided.has(call)) return this.decided.get(call);
    const decision = this.decide(call, model, general, shelf, playback);
    this.decided.set(call, decision);
    return decision;
  }

  private decide(call: CallContext, model: string, general: ProviderBundle, shelf: CassetteShelf, playback: Playback): WorkDecision {
    const what = recordedCallOf(call, model);
    if (!what) return undefined;
    const key = shelf.requestOf(what.call).key;
    if (what.kind === 'realtime') {
      // Every recording of the model is a candidate, the next of its sequence first: the client's frames choose.
      const found = shelf.candidates(key, 'realtime').slice(0, MAX_REALTIME_CANDIDATES);
      if (found.length > 0) return { answer: { ...general, realtimeRelay: replayRealtime(found, shelf, playback) } };
    } else {
      const found = shelf.next(key, what.kind);
      if (found) return { answer: workReplayBundle(found, shelf, general, this.work, call) };
    }
    // A realtime miss goes where an HTTP one does (the simulator, or relay); a registration or task not replayed goes where
    // it would without --replay (a service channel when one is configured, else the simulator).
    if (what.kind === 'realtime' && this.deck.miss === 'simulate') return { answer: general };
    if (this.deck.miss !== 'error') return undefined;
    return { refuse: new GatewayError('not_found', `No cassette was recorded for this ${what.label} (--replay-miss error).`, 'cassette') };
  }

  /** Under `--record`, `bundle` with its realtime relay recording each session it opens; else `bundle`. */
  record(bundle: ProviderBundle, call: CallContext, model: string): ProviderBundle {
    const recorder = this.deck.recorder;
    const relay = bundle.realtimeRelay;
    if (!recorder || !relay || call.protocol !== 'realtime') return bundle;
    return {
      ...bundle,
      realtimeRelay: {
        open: (client, request, inner) =>
          relay.open(client, { ...request, tape: new RealtimeSessionTape(recorder, model, this.clock, request.report) }, inner),
      },
    };
  }
}

/** The call a cassette of these kinds is keyed by, or undefined for every other call. */
function recordedCallOf(call: CallContext, model: string) {
  if (call.protocol === 'realtime')
    return { kind: 'realtime' as const, call: realtimeCall(model), label: `realtime session of model '${model}'` };
  if (call.protocol === 'portrait' && call.endpoint === '/v1/portrait/assets' && isObject(call.body)) {
    const body = call.body;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const registration = { url: text(body['url']), assetType: text(body['asset_type']), name: text(body['name']) };
    return { kind: 'portrait' as const, call: portraitCall(registration), label: 'portrait asset registration' };
  }
  if (call.protocol === 'tasks3d' && call.endpoint === '/v1/3d/generations' && isObject(call.body))
    return { kind: 'task3d' as const, call: task3dCall(call, model), label: '3D task' };
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

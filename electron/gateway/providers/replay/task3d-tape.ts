// Records 3D tasks: each task's request (its normal form), its state at each check on the gateway's clock, and once it ends its usage and result file (saved beside the cassette).
import type { CassetteRequest, Task3dCassette } from '../../../../shared/cassette.ts';
import { UpstreamError } from '../../errors.ts';
import type { ReportError } from '../../safe-events.ts';
import type { Clock } from '../../time.ts';
import type { CallContext, CassetteRecorder, Mesh3dProvider, RecordedCall } from '../types.ts';
import { hiderOf, OpenTapes, recordingOf, type TapeSource } from './open-tapes.ts';

/** Content types of the result formats (as the file route serves them). */
const CONTENT_TYPES = { glb: 'model/gltf-binary', obj: 'model/obj', stl: 'model/stl' } as const;

interface OpenTape {
  request: CassetteRequest;
  source: TapeSource;
  inputTokens: number;
  progress: Task3dCassette['progress'];
}

/** The call a 3D cassette is keyed by (the same on recording and on replay): the task creation's body, as the caller sent it. */
export function task3dCall(call: CallContext, model: string): RecordedCall {
  return {
    protocol: 'tasks3d',
    method: 'POST',
    path: '/v1/3d/generations',
    endpoint: '/v1/3d/generations',
    model,
    body: call.body,
    stream: false,
  };
}

/** The open tapes of the tasks under way (in memory, bounded: the oldest is dropped), by upstream and upstream id. */
export class Task3dTapes {
  private readonly recorder: CassetteRecorder;
  private readonly clock: Clock;
  private readonly report: ReportError;
  private readonly open = new OpenTapes<OpenTape>();

  constructor(recorder: CassetteRecorder, clock: Clock, report: ReportError) {
    this.recorder = recorder;
    this.clock = clock;
    this.report = report;
  }

  /** `mesh3d` whose tasks are recorded from their creation to their end. */
  wrap(mesh3d: Mesh3dProvider, source: TapeSource): Mesh3dProvider {
    const hide = hiderOf(source);
    return {
      submit: async (request, call) => {
        const submitted = await mesh3d.submit(request, call);
        this.open.add(source, submitted.upstreamId, {
          request: this.recorder.requestOf(task3dCall(call, request.model)),
          source,
          inputTokens: submitted.inputTokens,
          progress: [],
        });
        return submitted;
      },
      check: async (task) => {
        const tape = this.open.get(source, task.upstreamId);
        if (!tape) return mesh3d.check(task);
        const atMs = Math.max(0, this.clock.now() - task.submittedAt);
        let state;
        try {
          state = await mesh3d.check(task);
        } catch (error) {
          if (error instanceof UpstreamError) tape.progress.push({ atMs, status: 'ERROR', failureReason: hide(error.message) });
          throw error;
        }
        if (state.state === 'SUCCESS' || state.state === 'FAILURE') {
          this.open.close(source, task.upstreamId);
          tape.progress.push({
            atMs,
            status: state.state,
            progress: 100,
            ...(state.state === 'FAILURE' && { failureReason: hide(state.reason) }),
          });
          const file = state.state === 'SUCCESS' ? { bytes: state.file, format: task.format } : undefined;
          const outputTokens = state.state === 'SUCCESS' ? state.outputTokens : 0;
          this.save(tape, outputTokens, file).catch(this.report);
        } else {
          tape.progress.push({ atMs, status: state.state, progress: state.progress });
        }
        return state;
      },
    };
  }

  private async save(
    tape: OpenTape,
    outputTokens: number,
    file: { bytes: Uint8Array; format: 'glb' | 'obj' | 'stl' } | undefined,
  ): Promise<void> {
    const files = file
      ? [{ name: `result.${file.format}`, contentType: CONTENT_TYPES[file.format], blob: await this.recorder.saveBlob(file.bytes) }]
      : [];
    await this.recorder.save({
      kind: 'task3d',
      recording: recordingOf(tape.source, this.clock, 'tasks3d'),
      request: tape.request,
      progress: tape.progress,
      files,
      usage: { inputTokens: tape.inputTokens, outputTokens },
    });
  }
}

// The simulated 3D upstream: a task takes a fixed time, passes SUBMITTED → QUEUED → IN_PROGRESS, then yields a mesh file (or fails on the test word).
import { publicId } from '../../../ids.ts';
import { countTokens } from '../../../protocols/neutral/tokens.ts';
import type { Clock } from '../../../time.ts';
import type { Mesh3dProvider, Mesh3dState, Mesh3dTask } from '../../types.ts';
import { meshForPrompt } from '../mesh3d/geometry.ts';
import { toGlb } from '../mesh3d/glb.ts';
import { toObj } from '../mesh3d/obj.ts';
import { toStl } from '../mesh3d/stl.ts';

/** The test value: a prompt containing this word (any case) ends in FAILURE. */
export const FAILURE_WORD = 'fail';
/** Input tokens an image reference counts for. */
const IMAGE_TOKENS = 258;

export class SimulatedMesh3d implements Mesh3dProvider {
  private readonly clock: Clock;
  /** Time from submission to the result. */
  private readonly durationMs: number;
  constructor(clock: Clock, durationMs: number) {
    this.clock = clock;
    this.durationMs = durationMs;
  }

  async submit(request: { prompt: string; imageUrl: string | null }) {
    return {
      upstreamId: publicId('sim3d'),
      inputTokens: countTokens(request.prompt) + (request.imageUrl ? IMAGE_TOKENS : 0),
      durationMs: this.durationMs,
    };
  }

  /** The state from the elapsed share of the task's time; once it is up, the outcome (the same one every time). */
  async check(task: Mesh3dTask): Promise<Mesh3dState> {
    const durationMs = Math.max(1, task.durationMs);
    const share = (this.clock.now() - task.submittedAt) / durationMs;
    if (share < 0.1) return { state: 'SUBMITTED', progress: 0 };
    if (share < 0.25) return { state: 'QUEUED', progress: 0 };
    if (share < 1) return { state: 'IN_PROGRESS', progress: Math.min(99, Math.max(1, Math.floor(((share - 0.25) / 0.75) * 100))) };
    if (task.prompt.toLowerCase().includes(FAILURE_WORD)) {
      return { state: 'FAILURE', reason: `generation failed: the prompt contains the test value "${FAILURE_WORD}"` };
    }
    const mesh = meshForPrompt(task.prompt || task.imageUrl || task.upstreamId);
    const writers = { glb: toGlb, obj: toObj, stl: toStl };
    return {
      state: 'SUCCESS',
      file: writers[task.format](mesh, task.prompt.slice(0, 40) || 'mesh'),
      outputTokens: mesh.indices.length / 3,
    };
  }
}

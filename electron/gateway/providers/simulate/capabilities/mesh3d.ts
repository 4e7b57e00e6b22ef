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

  /**
   * Once the task's time is up, its outcome (the same one every time, finished at the end of its time); before, the
   * state from the elapsed share of its time: SUBMITTED for the first tenth, QUEUED to a quarter, then IN_PROGRESS
   * with progress from 1 to 99%.
   */
  async check(task: Mesh3dTask): Promise<Mesh3dState> {
    const elapsed = this.clock.now() - task.submittedAt;
    if (elapsed >= task.durationMs) return outcome(task);
    const share = elapsed / Math.max(1, task.durationMs);
    if (share < 0.1) return { state: 'SUBMITTED', progress: 0 };
    if (share < 0.25) return { state: 'QUEUED', progress: 0 };
    return { state: 'IN_PROGRESS', progress: Math.min(99, Math.max(1, Math.floor(((share - 0.25) / 0.75) * 100))) };
  }
}

/** A finished task: FAILURE for a prompt with the test word, else the mesh of its prompt (or image URL) in its format. */
function outcome(task: Mesh3dTask): Mesh3dState {
  const finishedAt = task.submittedAt + task.durationMs;
  if (task.prompt.toLowerCase().includes(FAILURE_WORD)) {
    return { state: 'FAILURE', reason: `generation failed: the prompt contains the test value "${FAILURE_WORD}"`, finishedAt };
  }
  const mesh = meshForPrompt(task.prompt || task.imageUrl || task.upstreamId);
  const writers = { glb: toGlb, obj: toObj, stl: toStl };
  return {
    state: 'SUCCESS',
    file: writers[task.format](mesh, task.prompt.slice(0, 40) || 'mesh'),
    outputTokens: mesh.indices.length / 3,
    finishedAt,
  };
}

// Replays portrait reviews and 3D tasks: a recorded course becomes a scripted one (fixtures' ScriptedWork), so the single-asset query, the background scan and task checks follow it on the gateway's clock.
import { CassetteError, type PortraitCassette, type Task3dCassette } from '../../../../shared/cassette.ts';
import { GatewayError } from '../../errors.ts';
import type { ScriptedWork } from '../fixtures/scripted-work.ts';
import type { ScriptedReview, ScriptedTask3d } from '../fixtures/types.ts';
import type { CallContext, CassetteShelf, FoundCassette, ProviderBundle } from '../types.ts';

/** The scripted review a recorded one replays as: Processing (or the recorded refresh errors) until the first final verdict's offset, then that verdict. */
export function reviewOfCassette(cassette: PortraitCassette): ScriptedReview {
  const final = cassette.observations.find((seen) => seen.status === 'Active' || seen.status === 'Failed');
  if (!final) throw new GatewayError('upstream_failed', 'The portrait cassette has no final verdict.');
  return {
    status: final.status as 'Active' | 'Failed',
    reason: final.failureReason ?? 'failed upstream',
    delayMs: final.atMs,
    ...(final.resolvedUrl && { resolvedUrl: final.resolvedUrl }),
    course: cassette.observations
      .filter((seen) => seen.atMs < final.atMs)
      .map((seen) => ({ atMs: seen.atMs, ...(seen.refreshError !== undefined && { error: seen.refreshError }) })),
  };
}

/** The scripted task a recorded one replays as: its states at their offsets, then its end with the recorded file and usage. */
export function taskOfCassette(cassette: Task3dCassette, file: Uint8Array | undefined): ScriptedTask3d {
  const final = cassette.progress.find((seen) => seen.status === 'SUCCESS' || seen.status === 'FAILURE');
  if (!final) throw new GatewayError('upstream_failed', 'The 3D cassette has no final state.');
  const course: NonNullable<ScriptedTask3d['course']> = [];
  for (const seen of cassette.progress) {
    if (seen.atMs >= final.atMs) break;
    const state = seen.status === 'SUBMITTED' || seen.status === 'QUEUED' ? seen.status : 'IN_PROGRESS';
    const last = course.at(-1);
    course.push({
      atMs: seen.atMs,
      state: last && seen.status === 'ERROR' ? last.state : state,
      progress: seen.progress ?? last?.progress ?? 0,
      ...(seen.status === 'ERROR' && { error: seen.failureReason ?? 'the upstream could not tell' }),
    });
  }
  return {
    status: final.status as 'SUCCESS' | 'FAILURE',
    reason: final.failureReason ?? 'failed upstream',
    progress: [0],
    durationMs: final.atMs,
    course,
    ...(file && { file }),
    ...(cassette.usage && { inputTokens: cassette.usage.inputTokens, outputTokens: cassette.usage.outputTokens }),
  };
}

/**
 * The bundle of a portrait registration or 3D task creation a cassette answers: its reviewer or 3D upstream registers
 * the recorded course with `work` (service channels are not asked, as for a fixture); the rest is `fallback`'s.
 */
export function workReplayBundle(
  found: FoundCassette,
  shelf: CassetteShelf,
  fallback: ProviderBundle,
  work: ScriptedWork,
  call: CallContext,
): ProviderBundle {
  const { passthrough: _passthrough, realtimeRelay: _realtimeRelay, ...rest } = fallback;
  const loaded = async <K extends 'portrait' | 'task3d'>(kind: K) => {
    const cassette = await found.load().catch(refusedCassette);
    if (cassette.kind !== kind) throw new GatewayError('upstream_failed', `The cassette ${found.file} is not a ${kind} cassette.`);
    call.noteReplay?.({ file: found.file, sequence: found.sequence, recordedAt: cassette.recording.recordedAt });
    return cassette as Extract<typeof cassette, { kind: K }>;
  };
  return {
    ...rest,
    fixture: { label: `cassette ${found.file}` },
    reviewer: {
      submit: async () => work.submitReview(reviewOfCassette(await loaded('portrait'))),
      check: (upstreamId) => fallback.reviewer.check(upstreamId),
    },
    mesh3d: {
      submit: async (request, inner) => {
        const cassette = await loaded('task3d');
        const blob = cassette.files[0]?.blob;
        const file = blob ? await bytesOf(shelf.blob(blob)).catch(refusedCassette) : undefined;
        return work.submitTask(taskOfCassette(cassette, file), fallback.mesh3d, request, inner);
      },
      check: (task) => fallback.mesh3d.check(task),
    },
  };
}

/** A damaged cassette (a CassetteError naming its file and field) as the GatewayError the caller gets: refused whole. Other errors go on. */
export function refusedCassette(error: unknown): never {
  if (error instanceof CassetteError) throw new GatewayError('internal', `Replay refused a damaged cassette: ${error.message}`);
  throw error;
}

/** A blob's bytes, read whole. */
export async function bytesOf(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

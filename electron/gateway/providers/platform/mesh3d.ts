// The `platform` 3D upstream: tasks are created and read on another server of this platform's API; a finished task's file is downloaded from it (same origin only, bounded).
import { UpstreamError } from '../../errors.ts';
import { jsonOf, scrub, serviceFetch } from '../service-http.ts';
import type { Mesh3dProvider, Mesh3dState, Mesh3dTask, ServiceChannel } from '../types.ts';
import { errorTextOf, platformCall } from './client.ts';

/** Largest 3D result file downloaded from a platform. */
export const PLATFORM_FILE_LIMIT = 64 * 1024 * 1024;

export class PlatformMesh3d implements Mesh3dProvider {
  private readonly channel: ServiceChannel;
  constructor(channel: ServiceChannel) {
    this.channel = channel;
  }

  async submit(request: Omit<Mesh3dTask, 'upstreamId' | 'submittedAt' | 'durationMs'>) {
    const answer = await platformCall(this.channel, 'POST', '/v1/3d/generations', {
      model: this.channel.upstreamModel || request.model,
      prompt: request.prompt,
      ...(request.imageUrl !== null && { image_url: request.imageUrl }),
      format: request.format,
    });
    if (answer.status !== 200) throw new UpstreamError(errorTextOf(this.channel, answer));
    const task = taskOf(jsonOf(answer));
    return { upstreamId: task.task_id, inputTokens: task.usage.input_tokens, durationMs: 0 };
  }

  async check(task: Mesh3dTask): Promise<Mesh3dState> {
    const answer = await platformCall(this.channel, 'GET', `/v1/3d/generations/${encodeURIComponent(task.upstreamId)}`);
    if (answer.status !== 200) throw new UpstreamError(errorTextOf(this.channel, answer));
    const remote = taskOf(jsonOf(answer));
    const finishedAt = remote.finish_time > 0 ? remote.finish_time * 1000 : undefined;
    switch (remote.status) {
      case 'SUBMITTED':
      case 'QUEUED':
      case 'IN_PROGRESS':
        return { state: remote.status, progress: Math.max(0, Math.min(99, Number.parseInt(remote.progress, 10) || 0)) };
      case 'FAILURE':
        return { state: 'FAILURE', reason: remote.failure_reason ?? 'failed upstream', ...(finishedAt && { finishedAt }) };
      case 'SUCCESS': {
        const file = remote.files.find((entry) => entry.format === task.format) ?? remote.files[0];
        if (!file) throw new UpstreamError('the platform finished the task without a file');
        return {
          state: 'SUCCESS',
          file: await this.download(file.url),
          outputTokens: remote.usage.output_tokens,
          ...(finishedAt && { finishedAt }),
        };
      }
      default:
        throw new UpstreamError(`the platform answered an unknown task status ${JSON.stringify(remote.status).slice(0, 40)}`);
    }
  }

  /** The result file, only from the channel's own origin (the token is never sent elsewhere), at most PLATFORM_FILE_LIMIT bytes. */
  private async download(url: string): Promise<Uint8Array> {
    let target: URL;
    try {
      target = new URL(url, this.channel.baseUrl);
    } catch {
      throw new UpstreamError('the platform gave a result file URL that is not a URL');
    }
    if (target.origin !== new URL(this.channel.baseUrl).origin)
      throw new UpstreamError(
        `the platform's result file is on another origin (${target.origin}); only ${new URL(this.channel.baseUrl).origin} is fetched`,
      );
    const headers: Record<string, string> = { ...this.channel.headers };
    if (this.channel.key !== null) headers['authorization'] = `Bearer ${this.channel.key}`;
    const answer = await serviceFetch({
      url: target.href,
      method: 'GET',
      headers,
      timeoutMs: this.channel.timeoutMs,
      idleTimeoutMs: this.channel.idleTimeoutMs,
      deadlineMs: this.channel.deadlineMs,
      limit: PLATFORM_FILE_LIMIT,
      secret: this.channel.key,
    });
    if (answer.status !== 200) throw new UpstreamError(scrub(`the result file answered HTTP ${answer.status}`, this.channel.key));
    return answer.bytes;
  }
}

/** The fields of a remote task this provider reads. */
interface RemoteTask {
  task_id: string;
  status: string;
  progress: string;
  files: { url: string; format: string }[];
  usage: { input_tokens: number; output_tokens: number };
  finish_time: number;
  failure_reason: string | null;
}

function taskOf(body: unknown): RemoteTask {
  const task = body as Partial<RemoteTask> | undefined;
  if (!task || typeof task.task_id !== 'string' || typeof task.status !== 'string')
    throw new UpstreamError('the platform answered something that is not a 3D task');
  return {
    task_id: task.task_id,
    status: task.status,
    progress: typeof task.progress === 'string' ? task.progress : '0%',
    files: Array.isArray(task.files) ? task.files.filter((file) => typeof file?.url === 'string') : [],
    usage: { input_tokens: tokenCount(task.usage?.input_tokens), output_tokens: tokenCount(task.usage?.output_tokens) },
    finish_time: Number(task.finish_time) || 0,
    failure_reason: typeof task.failure_reason === 'string' ? task.failure_reason : null,
  };
}

/**
 * The most tokens a 3D task's usage may count, input or output, before the count is not believed: a task is priced per
 * call and by its tokens, so a count past this (or a negative one, which would credit the token's quota) is a broken or
 * hostile upstream's.
 */
export const MAX_3D_TASK_TOKENS = 2_097_152;

/** A usage count the platform sent (a number, or its decimal digits), when it is a whole number from 0 to MAX_3D_TASK_TOKENS; else 0 (not believed, never charged). */
function tokenCount(value: unknown): number {
  const count = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 && count <= MAX_3D_TASK_TOKENS ? count : 0;
}

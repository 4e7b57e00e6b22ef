// Client of the public 3D task endpoints: create a generation, read it back, fetch a result file.
import { errorOfResponse, send } from './http.ts';

/** A file of a finished task. */
export interface TaskFile {
  url: string;
  format: string;
}

/** A 3D task as the gateway returns it (spec shape; failure details under one of a few names). */
export interface Task3d {
  task_id: string;
  model: string;
  status: string;
  /** `"<n>%"`. */
  progress: string;
  files: TaskFile[];
  amount?: string;
  created_at?: number;
  finish_time?: number;
  fail_reason?: string | null;
  failure_reason?: string | null;
  error?: { message?: string } | string | null;
}

/** Statuses after which a task never changes. */
export const TASK_DONE = ['SUCCESS', 'FAILURE', 'FAILED', 'CANCELLED'];

export interface Task3dInput {
  model: string;
  prompt: string;
  format: string;
}

/** The failure reason of a task, whichever field carries it. */
export function taskFailure(task: Task3d): string | null {
  if (typeof task.error === 'string') return task.error;
  return task.fail_reason ?? task.failure_reason ?? task.error?.message ?? null;
}

/** The progress as a number from 0 to 100. */
export function progressOf(task: Task3d): number {
  const value = Number.parseFloat(task.progress);
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}

export function createTasks3dClient(apiBase: string, fetchImpl: typeof fetch) {
  const json = async <T>(path: string, apiKey: string, init: RequestInit = {}): Promise<T> => {
    const response = await send(fetchImpl, `${apiBase}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    });
    if (!response.ok) throw await errorOfResponse(response);
    return (await response.json()) as T;
  };
  return {
    create: (apiKey: string, input: Task3dInput) =>
      json<Task3d>('/v1/3d/generations', apiKey, { method: 'POST', body: JSON.stringify(input) }),
    get: (apiKey: string, taskId: string) => json<Task3d>(`/v1/3d/generations/${encodeURIComponent(taskId)}`, apiKey),
    /** A result file's bytes: its URL is a capability, no token needed (absolute URLs are used as given, paths joined to the gateway). */
    async file(url: string): Promise<ArrayBuffer> {
      const response = await send(fetchImpl, /^https?:/.test(url) ? url : `${apiBase}${url}`, {});
      if (!response.ok) throw await errorOfResponse(response);
      return response.arrayBuffer();
    },
  };
}

export type Tasks3dClient = ReturnType<typeof createTasks3dClient>;

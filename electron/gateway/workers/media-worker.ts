// Entry of a media worker thread: runs one job per message from the pool and posts back its result or its error.
import { parentPort } from 'node:worker_threads';
import { JobInputError, runMediaJob, type MediaJob } from './media-jobs.ts';

/** What the worker posts back for one job. */
export type MediaReply = { ok: true; output: unknown } | { ok: false; message: string; param: string | null; input: boolean };

parentPort?.on('message', (job: MediaJob) => {
  let reply: MediaReply;
  try {
    reply = { ok: true, output: runMediaJob(job.kind, job.input as never) };
  } catch (error) {
    const input = error instanceof JobInputError;
    reply = { ok: false, message: error instanceof Error ? error.message : String(error), param: input ? error.param : null, input };
  }
  parentPort!.postMessage(reply);
});

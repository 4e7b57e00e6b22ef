// Entry of a media worker thread: runs one job per message from the pool and posts back its result or its error.
import { parentPort } from 'node:worker_threads';
import { GatewayError, type ErrorKind } from '../errors.ts';
import { JobInputError, runMediaJob, type MediaJob } from './media-jobs.ts';
import { flushThreadCompileCache } from '../thread-start.ts';

/** What the worker posts back for one job: its output, or its error (`kind` set for an answer to the caller: a bad input, a limit). */
export type MediaReply = { ok: true; output: unknown } | { ok: false; message: string; param: string | null; kind: ErrorKind | null };

// The modules are loaded: the next thread finds them compiled, even if this one never ends normally.
flushThreadCompileCache();

parentPort?.on('message', (job: MediaJob) => {
  let reply: MediaReply;
  try {
    reply = { ok: true, output: runMediaJob(job.kind, job.input as never) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof JobInputError) reply = { ok: false, message, param: error.param, kind: 'invalid_request' };
    else if (error instanceof GatewayError) reply = { ok: false, message, param: error.param, kind: error.kind };
    else reply = { ok: false, message, param: null, kind: null };
  }
  parentPort!.postMessage(reply);
});

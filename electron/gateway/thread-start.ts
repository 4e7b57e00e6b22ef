// Starts and ends the gateway's worker threads: each loads its modules through the process's compile cache (a thread run from TypeScript sources does not strip their types again), is found beside its module or the bundle, and ends bounded.
import module from 'node:module';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on `file`. When this process compiles through Node's compile cache (`bin/run-ts.mjs` enables
 * it; `module.enableCompileCache()` reaches no worker), the thread is given the same folder (NODE_COMPILE_CACHE in its
 * environment): a thread run from `.ts` sources then reads its modules already stripped and compiled, instead of loading
 * Node's type stripper (a WebAssembly module of its own in every thread), which added 16 to 33 MiB of resident memory
 * per thread. The thread's first run fills the cache (see `flushThreadCompileCache`). Without a cache (the Electron
 * bundle's `.js` workers, NODE_DISABLE_COMPILE_CACHE) the thread starts as usual.
 */
export function startThread(file: URL, options: WorkerOptions = {}): Worker {
  const cache = module.getCompileCacheDir?.();
  const env = cache ? { ...process.env, NODE_COMPILE_CACHE: cache } : undefined;
  return new Worker(file, { ...options, ...(env && { env }) });
}

/**
 * Writes what this thread compiled so far into its compile cache, when it has one: called by a thread's entry once its
 * modules are loaded, so the next thread finds them even if this one never ends normally (Node writes the cache at exit).
 */
export function flushThreadCompileCache(): void {
  try {
    module.flushCompileCache?.();
  } catch {
    // A cache that cannot be written leaves the next thread to strip its sources again: nothing else changes.
  }
}

/**
 * The URL of the worker entry `name` beside the module whose `import.meta.url` is `base`: run from sources (Node strips
 * the types) its sibling `<name>.ts`; in the Electron bundle the `<name>.js` entry next to the main bundle.
 */
export function workerEntry(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * Starts the worker entry `name` beside `base` (see `workerEntry`) with `workerData`, the thread named so (as the system
 * lists it: its CPU time is told apart from the other threads'). The thread never keeps the process alive on its own (a
 * caller awaiting it refs it); `onExit` is told when it ended, with the error it threw, if it did.
 */
export function startWorker(
  base: string,
  name: string,
  workerData: unknown,
  onExit: (failure: Error | undefined, code: number) => void,
): Worker {
  const worker = startThread(workerEntry(base, name), { workerData, name });
  worker.unref();
  let failure: Error | undefined;
  // An error ends the thread: 'exit' follows it.
  worker.on('error', (error) => (failure = error));
  worker.on('exit', (code) => onExit(failure, code));
  return worker;
}

/** What ended a thread, for a message: the error it threw, else its exit code. */
export const threadEndOf = (failure: Error | undefined, code: number): string => failure?.message ?? `exit code ${code}`;

/**
 * Waits until each of `workers` ended (each asked to by its owner, a message of its own); past `boundMs` those still
 * running are ended. The bound's timer is referenced: the process waits for it even when nothing else keeps it alive.
 */
export async function threadsEnded(workers: readonly Worker[], boundMs: number): Promise<void> {
  if (workers.length === 0) return;
  const ended = Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
  const late = setTimeout(() => workers.forEach((worker) => void worker.terminate()), boundMs);
  await ended;
  clearTimeout(late);
}

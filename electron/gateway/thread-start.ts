// Starts a worker thread that loads its modules through the process's compile cache, so a thread run from TypeScript sources does not strip their types again.
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

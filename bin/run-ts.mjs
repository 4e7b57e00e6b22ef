#!/usr/bin/env node
// Runs a TypeScript entry file with Node's type stripping, re-executing Node with the flag when it is off by default (Node 22.12 to 22.17).
import module from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

/**
 * Node's compile cache (the stripped and compiled sources, reused while a file is unchanged) roughly halves the
 * start-up of `gatehouse serve`. It lives in the user's own cache folder, not a shared temp folder; Node's
 * NODE_COMPILE_CACHE picks another folder and NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function enableCompileCache() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || typeof module.enableCompileCache !== 'function') return;
  const base =
    process.platform === 'win32'
      ? (process.env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'))
      : process.platform === 'darwin'
        ? path.join(os.homedir(), 'Library', 'Caches')
        : (process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'));
  try {
    module.enableCompileCache(process.env.NODE_COMPILE_CACHE ?? path.join(base, 'gatehouse', 'compile-cache'));
  } catch {
    // No cache (a read-only home, say): the sources compile as usual.
  }
}

/**
 * Imports `entry` in this process when Node strips types natively, otherwise re-runs Node with
 * `--experimental-strip-types` and mirrors the child's exit code and signals.
 * @param {URL} entry
 * @param {string[]} args
 */
export async function runTypeScript(entry, args) {
  if (process.features.typescript) {
    enableCompileCache();
    process.argv = [process.argv[0], fileURLToPath(entry), ...args];
    await import(entry.href);
    return;
  }
  // Loaded only here (an older Node without type stripping): every other start is spared node:child_process.
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', fileURLToPath(entry), ...args],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    console.error('usage: run-ts.mjs <file.ts> [args...]');
    process.exit(2);
  }
  await runTypeScript(pathToFileURL(path.resolve(file)), rest);
}

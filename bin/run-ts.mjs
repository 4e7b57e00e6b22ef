#!/usr/bin/env node
// Runs a TypeScript entry file with Node's type stripping, re-executing Node with the flag when it is off by default (Node 22.12 to 22.17).
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

/**
 * Imports `entry` in this process when Node strips types natively, otherwise re-runs Node with
 * `--experimental-strip-types` and mirrors the child's exit code and signals.
 * @param {URL} entry
 * @param {string[]} args
 */
export async function runTypeScript(entry, args) {
  if (process.features.typescript) {
    process.argv = [process.argv[0], fileURLToPath(entry), ...args];
    await import(entry.href);
    return;
  }
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

// Test helper: builds the app bundles (out/main, out/preload, out/renderer) once per change of the sources, safely across parallel test files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const OUT = path.join(ROOT, 'out');
const STAMP = path.join(OUT, '.build-stamp');
const LOCK = path.join(OUT, '.build-lock');
const SOURCES = ['renderer', 'shared', 'electron', 'electron.vite.config.ts', 'renderer.vite.config.ts', 'package.json'];
const OUTPUTS = ['main/index.js', 'preload/index.cjs', 'renderer/index.html'];

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function isFresh(): boolean {
  if (!existsSync(STAMP) || OUTPUTS.some((file) => !existsSync(path.join(OUT, file)))) return false;
  const sources = Math.max(...SOURCES.map((entry) => newestMtime(path.join(ROOT, entry))));
  return statSync(STAMP).mtimeMs >= sources;
}

/** Runs `electron-vite build` unless the bundles are newer than every source; other test files wait for a build under way. */
export async function ensureBuilt(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (let waited = 0; ; waited += 200) {
    if (isFresh()) return;
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another test file is building; a lock older than two minutes is left over from a killed run.
      if (waited > 120_000) rmSync(LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    if (isFresh()) return;
    const startedAt = Date.now();
    const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stdout}\n${result.stderr}`);
    // Stamped with the start time: a source saved during the build makes the next run build again.
    writeFileSync(STAMP, new Date(startedAt).toISOString());
    utimesSync(STAMP, new Date(startedAt), new Date(startedAt));
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

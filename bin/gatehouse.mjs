#!/usr/bin/env node
// Launcher for the `gatehouse` CLI: runs its bundle when one matches the sources, else the TypeScript sources through Node's type stripping (and builds the bundle in the background).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleEnabled, freshBundle, startBundleBuild } from './cli-bundle.mjs';
import { enableCompileCache, runTypeScript } from './run-ts.mjs';

const entry = new URL('../electron/cli/main.ts', import.meta.url);
const args = process.argv.slice(2);
const bundle = bundleEnabled() ? freshBundle() : undefined;

if (bundle) {
  enableCompileCache();
  process.argv = [process.argv[0], fileURLToPath(entry), ...args];
  try {
    await import(bundle.href);
  } catch (error) {
    // Removed by a newer build between the check and the import (nothing of it ran): run the sources instead.
    if (existsSync(bundle)) throw error;
    await runTypeScript(entry, args);
  }
} else {
  if (bundleEnabled()) startBundleBuild();
  await runTypeScript(entry, args);
}

#!/usr/bin/env node
// Launcher for the `gatehouse` CLI: runs its bundle when one matches the sources, else the TypeScript sources through Node's type stripping (and builds the bundle in the background).
import { fileURLToPath } from 'node:url';
import { bundleEnabled, freshBundle, runBundle, startBundleBuild } from './cli-bundle.mjs';
import { enableCompileCache, runTypeScript } from './run-ts.mjs';

const entry = new URL('../electron/cli/main.ts', import.meta.url);
const args = process.argv.slice(2);
const bundle = bundleEnabled() ? freshBundle() : undefined;

// The worker threads still load their .ts entries: Node's compile cache serves them as before.
if (bundle) enableCompileCache();
// A bundle removed by a newer build since the check, or one that does not compile, runs nothing: the sources run instead.
if (!bundle || !runBundle(bundle, fileURLToPath(entry), args)) {
  if (bundleEnabled() && !bundle) startBundleBuild();
  await runTypeScript(entry, args);
}

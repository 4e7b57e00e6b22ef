#!/usr/bin/env node
// Launcher for the `gatehouse` CLI: runs the TypeScript sources through Node's built-in type stripping.
import { runTypeScript } from './run-ts.mjs';

await runTypeScript(new URL('../electron/cli/main.ts', import.meta.url), process.argv.slice(2));

#!/usr/bin/env node
// Runs the @doyensec/electronegativity scan over the desktop app's sources (main, preload, renderer) and prints the findings; exit 1 on a HIGH one.
// `--json` prints the findings as JSON for tests. The release-list check is skipped: it needs the network and crashes offline.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = ['electron/main', 'electron/preload', 'renderer/index.html', 'renderer/src', 'package.json'];
const OFFLINE_EXCLUDED = ['AvailableSecurityFixesGlobalCheck'];

const json = process.argv.includes('--json');
const scan = createRequire(import.meta.url)('@doyensec/electronegativity');
const input = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-scan-'));
let exitCode = 0;
try {
  for (const source of SOURCES) cpSync(path.join(ROOT, source), path.join(input, source), { recursive: true });
  const log = console.log;
  if (json) console.log = () => {}; // the scanner chats on stdout
  const result = await scan({ input, isRelative: true, excludeFromScan: OFFLINE_EXCLUDED });
  console.log = log;
  const findings = result.issues.map((issue) => ({
    id: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    file: issue.file,
    line: issue.location?.line ?? 0,
    manualReview: Boolean(issue.manualReview),
    description: issue.description,
  }));
  if (json) console.log(JSON.stringify({ checks: result.globalChecks + result.atomicChecks, errors: result.errors, findings }));
  else {
    for (const finding of findings)
      console.log(`${finding.severity}\t${finding.id}\t${finding.file}:${finding.line}\t${finding.description}`);
    console.log(`${findings.length} finding(s), ${findings.filter((finding) => finding.severity === 'HIGH').length} high`);
  }
  if (findings.some((finding) => finding.severity === 'HIGH')) exitCode = 1;
} finally {
  rmSync(input, { recursive: true, force: true });
}
process.exit(exitCode);

// Runs the Vitest example of `gatehouse/testing` (tests/vitest/) with Vitest itself, so `npm test` proves it; skipped, saying why, when Vitest is not installed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Vitest's launcher, or undefined when Vitest is not installed. */
function vitestBin(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('vitest/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
    return path.resolve(path.dirname(manifest), typeof bin === 'string' ? bin : bin['vitest']!);
  } catch {
    return undefined;
  }
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

const bin = vitestBin();

test(
  'the Vitest example (tests/vitest/helper.vitest.ts) passes under Vitest',
  { skip: bin === undefined && 'vitest is not installed (a devDependency: run npm install)' },
  async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-vitest-'));
    try {
      const report = path.join(out, 'report.json');
      const run = await promisify(execFile)(
        process.execPath,
        [bin!, 'run', '--config', 'tests/vitest/vitest.config.ts', '--configLoader', 'runner', '--reporter=json', `--outputFile=${report}`],
        { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', CI: '1' }, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        // A failing test exits 1; the report says which, and the output why.
        return { stdout: error.stdout ?? '', stderr: `${error.stderr ?? ''}\n${error.message}` };
      });
      let results: VitestReport;
      try {
        results = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
      } catch {
        assert.fail(`vitest wrote no report:\n${run.stdout}\n${run.stderr}`);
      }
      const outcomes = results.testResults.flatMap((file) => file.assertionResults.map((result) => [result.title, result.status]));
      const failures = results.testResults.flatMap((file) => file.assertionResults.flatMap((result) => result.failureMessages));
      assert.deepEqual(
        outcomes,
        [
          ['a scripted tool call, then the answer to its result', 'passed'],
          ['another test never sees the first test fixtures', 'passed'],
        ],
        failures.join('\n'),
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

// The @doyensec/electronegativity scan of the desktop app's sources: no high-severity finding, and none of the checklist items flagged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/build.ts';

/** Checklist items the scanner knows; each must come back clean. */
const MUST_PASS = [
  'CONTEXT_ISOLATION_JS_CHECK',
  'NODE_INTEGRATION_JS_CHECK',
  'NODE_INTEGRATION_HTML_CHECK',
  'SANDBOX_JS_CHECK',
  'WEB_SECURITY_JS_CHECK',
  'INSECURE_CONTENT_JS_CHECK',
  'EXPERIMENTAL_FEATURES_JS_CHECK',
  'AUXCLICK_JS_CHECK',
  'LIMIT_NAVIGATION_GLOBAL_CHECK',
  'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
  'HTTP_RESOURCES_JS_CHECK',
  'HTTP_RESOURCES_HTML_CHECK',
  'DANGEROUS_FUNCTIONS_JS_CHECK',
  'REMOTE_MODULE_JS_CHECK',
  'SECURITY_WARNINGS_DISABLED_JS_CHECK',
];

test('electronegativity finds nothing high-severity in the desktop sources', () => {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/electron-scan.mjs'), '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LANG: 'en-US' },
    timeout: 60_000,
  });
  const line = result.stdout.split('\n').find((text) => text.startsWith('{'));
  assert.ok(line, `no scan report:\n${result.stdout}\n${result.stderr}`);
  const report = JSON.parse(line) as {
    checks: number;
    errors: Array<{ file: string; message: string }>;
    findings: Array<{ id: string; severity: string; file: string; line: number }>;
  };
  assert.ok(report.checks > 30, 'the scanner loaded its checks');
  assert.deepEqual(
    report.errors.filter((error) => !/tolerable/i.test(error.message)),
    [],
    'every source file parsed',
  );
  const high = report.findings.filter((finding) => finding.severity === 'HIGH');
  assert.deepEqual(high, [], 'no high-severity finding');
  const flagged = report.findings.filter((finding) => MUST_PASS.includes(finding.id));
  assert.deepEqual(flagged, [], 'no checklist item flagged');
  console.log(
    `# electronegativity: ${report.findings.length} lower finding(s) for review: ${[...new Set(report.findings.map((finding) => `${finding.id} (${finding.severity})`))].join(', ')}`,
  );
  assert.equal(result.status, 0);
});

// `gatehouse --help` and the CLI reference's usage block name every flag serve accepts, so a new flag is never missing from either.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SERVE_OPTION_NAMES } from '../../electron/gateway/options/serve-options.ts';
import { runCli } from '../helpers/cli.ts';

/** The `gatehouse serve` part of a usage text: from its line to the next `gatehouse` command. */
function serveUsageOf(text: string): string {
  const start = text.indexOf('gatehouse serve ');
  assert.ok(start >= 0, 'the text shows serve’s usage');
  const next = text.indexOf('gatehouse ', start + 'gatehouse serve '.length);
  return text.slice(start, next);
}

test('gatehouse --help and docs/cli-and-settings.md name every flag of serve', () => {
  const help = runCli(['--help']);
  assert.equal(help.code, 0, help.stderr);
  const docs = readFileSync(new URL('../../docs/cli-and-settings.md', import.meta.url), 'utf8');
  for (const [where, usage] of [
    ['gatehouse --help', serveUsageOf(help.stdout)],
    ['docs/cli-and-settings.md', serveUsageOf(docs)],
  ] as const) {
    const missing = SERVE_OPTION_NAMES.filter((name) => !new RegExp(`\\[--${name}[ \\]]`).test(usage));
    assert.deepEqual(missing, [], `${where} leaves out`);
  }
});

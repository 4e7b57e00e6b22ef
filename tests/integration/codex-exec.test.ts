// Codex (the real CLI, `codex exec`) through the gateway: a provider entry with wire_api "responses" pointed at /v1 gets the simulated answer, and the journal holds the Responses call it made.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { eventually } from '../helpers/eventually.ts';
import { journalEntries } from '../helpers/relay.ts';
import { codexBinary, CODEX_MISSING } from '../helpers/real-clients.ts';

const binary = codexBinary();
const skip = binary ? false : CODEX_MISSING;
if (skip) console.log(`# skipped: ${skip}`);

/** Runs `codex exec` with `home` as CODEX_HOME in `cwd`; resolves with its exit code and output. */
function codexExec(home: string, cwd: string, key: string, prompt: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary!, ['exec', '--skip-git-repo-check', prompt], {
      cwd,
      env: { ...process.env, HOME: home, CODEX_HOME: home, GATEHOUSE_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A generous bound: the answer comes in well under a second on a quiet machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('Codex through the gateway', { skip }, () => {
  const dirs = tempDirs();
  let gateway: TestGateway;

  before(async () => {
    gateway = await startGateway();
  });
  after(async () => {
    await gateway?.stop();
    dirs.removeAll();
  });

  test('`codex exec` with a gatehouse provider (wire_api "responses") prints the simulated answer; the journal has its call', async () => {
    const home = dirs.fresh();
    writeFileSync(
      path.join(home, 'config.toml'),
      [
        'model = "gpt-4o-mini"',
        'model_provider = "gatehouse"',
        '',
        '[model_providers.gatehouse]',
        'name = "Gatehouse"',
        `base_url = "${gateway.url}/v1"`,
        'env_key = "GATEHOUSE_API_KEY"',
        'wire_api = "responses"',
        '',
      ].join('\n'),
    );
    const { code, output } = await codexExec(home, dirs.fresh(), gateway.token, 'Say hello to the gateway');
    assert.equal(code, 0, `codex exec succeeded:\n${output}`);
    const entries = await eventually(async () => {
      const found = await journalEntries(gateway, { path: '/v1/responses' });
      return found.length > 0 ? found : undefined;
    }, 'the journal entry of the call codex made');
    const answered = entries.find((entry) => entry.status === 200);
    assert.ok(answered, 'a Responses call was answered');
    assert.equal(answered.source ?? 'simulate', 'simulate');
    // The text the simulator answered is the text codex printed.
    const text = JSON.stringify(answered.response_body ?? answered.response ?? '');
    const words = output.split(/\s+/).filter((word) => /^[A-Za-z]{6,}$/.test(word));
    assert.ok(words.length > 0 && words.some((word) => text.includes(word)), `codex printed the simulated answer:\n${output}`);
  });
});

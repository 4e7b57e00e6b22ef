// The real Claude Code and Codex CLIs from npm run against a gateway on port 0 with nothing but the config Connect wrote in their (temporary) home folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolConfigPlan } from '../../shared/tool-config.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { claudeBinary, CLAUDE_MISSING, codexBinary, CODEX_MISSING } from '../helpers/real-clients.ts';
import { journalEntries } from '../helpers/relay.ts';

/** Runs a CLI with HOME set to `home` and no other variable of ours than PATH (the config file must do all the rest). */
function runTool(binary: string, args: string[], home: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd, env: { PATH: process.env['PATH'], HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A generous bound only so a hanging CLI ends the test: the simulated answer comes in well under a second.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Connects `tool` through the admin API, as the console's Apply button does. */
async function apply(gateway: TestGateway, tool: string): Promise<ToolConfigPlan> {
  const answer = await request<ToolConfigPlan>(`${gateway.url}/admin/api/connect/${tool}/apply`, 'POST', {
    token: gateway.gateway.adminToken,
    body: {},
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** The recorded calls on `path` that carried the tool's own token. */
async function callsOf(gateway: TestGateway, where: string, tokenName: string) {
  return eventually(async () => {
    const found = (await journalEntries(gateway, { path: where })).filter((entry) => entry.token === tokenName);
    return found.length > 0 ? found : undefined;
  }, `a call on ${where} with the token "${tokenName}" in the journal`);
}

const dirs = tempDirs();
after(() => dirs.removeAll());

const claude = claudeBinary();
if (!claude) console.log(`# skipped: ${CLAUDE_MISSING}`);

describe('Claude Code with the config Connect wrote', { skip: claude ? false : CLAUDE_MISSING }, () => {
  let gateway: TestGateway;
  let home: string;
  const before_ = '{\n  "theme": "dark"\n}\n';

  before(async () => {
    home = dirs.fresh();
    mkdirSync(path.join(home, '.claude'));
    writeFileSync(path.join(home, '.claude', 'settings.json'), before_);
    gateway = await startGateway({ homeDir: home });
  });
  after(() => gateway?.stop());

  test("`claude -p` answers through the gateway with the written ~/.claude/settings.json alone, on the tool's own token; undo restores the file", async () => {
    const plan = await apply(gateway, 'claude-code');
    const settings = JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
    assert.equal(settings.theme, 'dark');
    assert.equal(settings.env.ANTHROPIC_BASE_URL, gateway.url);

    const { code, output } = await runTool(claude!, ['-p', 'Say hello to the gateway'], home, dirs.fresh());
    assert.equal(code, 0, `claude -p succeeded:\n${output}`);
    assert.notEqual(output.trim(), '', 'it printed the answer');
    const calls = await callsOf(gateway, '/v1/messages', 'claude-code');
    assert.ok(
      calls.some((entry) => entry.status === 200 && entry.model === plan.model),
      JSON.stringify(calls.map((entry) => [entry.status, entry.model])),
    );

    const undone = await request(`${gateway.url}/admin/api/connect/claude-code/undo`, 'POST', { token: gateway.gateway.adminToken });
    assert.equal(undone.status, 200);
    assert.equal(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'), before_);
  });
});

const codex = codexBinary();
if (!codex) console.log(`# skipped: ${CODEX_MISSING}`);

describe('Codex with the config Connect wrote', { skip: codex ? false : CODEX_MISSING }, () => {
  let gateway: TestGateway;
  let home: string;

  before(async () => {
    home = dirs.fresh();
    gateway = await startGateway({ homeDir: home });
  });
  after(() => gateway?.stop());

  test('`codex exec` answers through the gateway with the written ~/.codex/config.toml alone (no key variable)', async () => {
    await apply(gateway, 'codex');
    const { code, output } = await runTool(codex!, ['exec', '--skip-git-repo-check', 'Say hello to the gateway'], home, dirs.fresh());
    assert.equal(code, 0, `codex exec succeeded:\n${output}`);
    const calls = await callsOf(gateway, '/v1/responses', 'codex');
    assert.ok(
      calls.some((entry) => entry.status === 200),
      JSON.stringify(calls.map((entry) => entry.status)),
    );
  });
});

// The real Gemini CLI from npm (`gemini -p`, headless) through a gateway on port 0 with nothing but the config Connect wrote: simulated, relayed to a second Gatehouse's Gemini channel, and translated to an OpenAI channel.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolConfigPlan } from '../../shared/tool-config.ts';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { geminiCliBinary, GEMINI_CLI_MISSING } from '../helpers/real-clients.ts';
import { journalEntries } from '../helpers/relay.ts';

const binary = geminiCliBinary();
if (!binary) console.log(`# skipped: ${GEMINI_CLI_MISSING}`);

/**
 * The user's own settings before connecting: what keeps the CLI offline beside the gateway (no usage statistics, telemetry,
 * update check or IDE connection). Connect must keep them.
 */
const OFFLINE_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  ide: { enabled: false },
};

/** Runs `gemini -p` in `cwd` with HOME set to `home` and no variable of ours but PATH (the written config must do all the rest). */
function geminiPrompt(home: string, cwd: string, prompt: string): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary!, ['-p', prompt], {
      cwd,
      // GEMINI_CLI_NO_RELAUNCH: no second Node process with a larger heap; NO_COLOR: plain text to compare.
      env: { PATH: process.env['PATH'], HOME: home, GEMINI_CLI_NO_RELAUNCH: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A generous bound only so a hanging CLI ends the test: the answer comes in seconds.
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, output });
    });
  });
}

const dirs = tempDirs();
after(() => dirs.removeAll());

/** A 1×1 PNG: a prompt naming it (`@pic.png`) makes Gemini CLI count the request's tokens with the API (`:countTokens`). */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');

/** A home folder with the user's offline settings, and a project folder to run in (holding pic.png). */
function sandbox(): { home: string; project: string } {
  const home = dirs.fresh();
  mkdirSync(path.join(home, '.gemini'));
  writeFileSync(path.join(home, '.gemini', 'settings.json'), `${JSON.stringify(OFFLINE_SETTINGS, null, 2)}\n`);
  const project = dirs.fresh();
  writeFileSync(path.join(project, 'pic.png'), PIXEL_PNG);
  return { home, project };
}

/** The journal entries of `gateway` on `where` that `keep` accepts, once there is one (a call is recorded a moment after its answer). */
function recorded(gateway: TestGateway, where: { path: string } | { prefix: string }, keep: (entry: any) => boolean, what: string) {
  return eventually(async () => {
    const found = (await journalEntries(gateway, where)).filter(keep);
    return found.length > 0 ? found : undefined;
  }, what);
}

/** Connects Gemini CLI through the admin API (as the console's Apply does) with `model`, the project folder trusted. */
async function connect(gateway: TestGateway, model: string, project: string): Promise<ToolConfigPlan> {
  const answer = await request<ToolConfigPlan>(`${gateway.url}/admin/api/connect/gemini-cli/apply`, 'POST', {
    token: gateway.gateway.adminToken,
    body: { model, trustFolder: project },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** The journal's answered generation calls of `model` that carried Gemini CLI's own token (its classifier's included). */
async function generationsOf(gateway: TestGateway, model: string): Promise<any[]> {
  try {
    return await recorded(
      gateway,
      { prefix: `/v1beta/models/${model}:` },
      (entry) => entry.token === 'gemini-cli' && entry.status === 200 && /:(stream)?[gG]enerateContent$/.test(entry.path),
      `an answered generation of ${model} with the token "gemini-cli" in the journal`,
    );
  } catch (error) {
    // Say what the CLI did call instead.
    const calls = (await journalEntries(gateway, { prefix: '/' })).map((entry) => [entry.path, entry.status, entry.error]);
    throw new Error(`${(error as Error).message}; the journal has ${JSON.stringify(calls)}`);
  }
}

/** A gateway using `home` whose one channel is `channel` (an upstream the second Gatehouse plays). */
function channelGateway(home: string, channel: TestChannel): Promise<TestGateway> {
  return startGateway({ homeDir: home, channels: memoryChannels([channel]) });
}

/** Connects Gemini CLI to `gateway` with `model`, runs `prompt`, and asserts it printed an answer the gateway relayed through the channel `channel`. */
async function assertRelayedRun(
  gateway: TestGateway,
  model: string,
  at: { home: string; project: string },
  prompt: string,
  channel: string,
): Promise<void> {
  await connect(gateway, model, at.project);
  const run = await geminiPrompt(at.home, at.project, prompt);
  assert.equal(run.code, 0, `gemini -p succeeded:\n${run.output}`);
  const entries = await generationsOf(gateway, model);
  assertPrintedAnswer(run, entries);
  assert.ok(
    entries.some((entry) => entry.source === 'relay' && entry.relay?.channel === channel),
    JSON.stringify(entries.map((entry) => [entry.source, entry.relay?.channel])),
  );
}

/** The text the gateway answered in a journal entry (a JSON body or an SSE stream of Gemini chunks). */
function answeredText(entry: any): string {
  const body: string = entry.response?.text ?? '';
  const chunks = body.includes('data:')
    ? body
        .split('\n')
        .filter((line: string) => line.startsWith('data:'))
        .map((line: string) => line.slice(5).trim())
    : [body];
  let text = '';
  for (const chunk of chunks) {
    try {
      const value = JSON.parse(chunk);
      for (const part of value?.candidates?.[0]?.content?.parts ?? [])
        if (typeof part.text === 'string' && !part.thought) text += part.text;
    } catch {
      // not a JSON chunk
    }
  }
  return text;
}

/** Asserts the CLI succeeded and printed the text of one of the answered generations, as the journal has it. */
function assertPrintedAnswer(run: { code: number | null; stdout: string; output: string }, entries: any[]): void {
  assert.equal(run.code, 0, `gemini -p succeeded:\n${run.output}`);
  const printed = run.stdout.replace(/\s+/g, ' ').trim();
  const texts = entries.map(answeredText).map((text) => text.replace(/\s+/g, ' ').trim());
  assert.ok(
    texts.some((text) => text !== '' && printed.includes(text)),
    `gemini -p printed the answer the gateway gave:\nprinted: ${printed}\nanswered: ${JSON.stringify(texts)}`,
  );
}

describe('Gemini CLI (`gemini -p`) with the config Connect wrote', { skip: binary ? false : GEMINI_CLI_MISSING }, () => {
  let upstream: TestGateway;
  before(async () => {
    upstream = await startGateway();
  });
  after(() => upstream?.stop());
  /** The OpenAI channel to the second Gatehouse that serves gpt-4o-mini (translated from Gemini's API). */
  const openAiUp = (): TestChannel => ({
    name: 'openai-up',
    kind: 'openai',
    baseUrl: `${upstream.url}/v1`,
    key: upstream.token,
    models: ['gpt-4o-mini'],
  });

  test('(a) the simulated answer is printed, in a project with its own .env too; the journal has the call, source simulate', async () => {
    const { home, project } = sandbox();
    // A project's own .env (Gemini CLI reads only the first .env it finds from the project folder up) must not hide the gateway's.
    writeFileSync(path.join(project, '.env'), 'DATABASE_URL=postgres://localhost/app\n');
    const gateway = await startGateway({ homeDir: home });
    try {
      // This one is connected as a user would from the shell: the real `gatehouse connect gemini-cli --trust`, on the gateway's data dir.
      const connected = await runCliAsync(
        [
          'connect',
          'gemini-cli',
          '--model',
          'gemini-2.5-flash',
          '--trust',
          project,
          '--url',
          gateway.url,
          '--data-dir',
          gateway.dataDir,
          '--secrets',
          'file',
        ],
        { GATEHOUSE_HOME_DIR: home },
      );
      assert.equal(connected.code, 0, connected.stderr);
      const run = await geminiPrompt(home, project, 'Say hello to the gateway');
      assert.equal(run.code, 0, `gemini -p succeeded:\n${run.output}`);
      const entries = await generationsOf(gateway, 'gemini-2.5-flash');
      assertPrintedAnswer(run, entries);
      assert.ok(
        entries.every((entry) => entry.source === 'simulate' && entry.relay === undefined),
        JSON.stringify(entries.map((entry) => entry.source)),
      );
    } finally {
      await gateway.stop();
    }
  });

  test("(b) relayed to a second Gatehouse through a gemini channel: the upstream's answer is printed, source relay on gemini-up", async () => {
    const at = sandbox();
    const gateway = await channelGateway(at.home, {
      name: 'gemini-up',
      kind: 'gemini',
      baseUrl: upstream.url,
      key: upstream.token,
      models: ['gemini-2.5-flash'],
    });
    try {
      await assertRelayedRun(gateway, 'gemini-2.5-flash', at, 'Describe @pic.png for the relay', 'gemini-up');
      await recorded(
        upstream,
        { prefix: '/v1beta/models/gemini-2.5-flash:' },
        () => true,
        'the second Gatehouse answered the relayed call',
      );
      await recorded(
        gateway,
        { path: '/v1beta/models/gemini-2.5-flash:countTokens' },
        (entry) => entry.token === 'gemini-cli' && entry.status === 200 && entry.relay?.channel === 'gemini-up',
        "the picture's tokens counted by the upstream through the gemini channel",
      );
    } finally {
      await gateway.stop();
    }
  });

  test('(c) a model only an OpenAI channel serves is translated: the answer is printed, source relay on openai-up', async () => {
    const at = sandbox();
    const gateway = await channelGateway(at.home, openAiUp());
    try {
      await assertRelayedRun(gateway, 'gpt-4o-mini', at, 'Describe @pic.png through translation', 'openai-up');
      await recorded(
        upstream,
        { path: '/v1/chat/completions' },
        (entry) => /image_url/.test(entry.request.text ?? ''),
        'the call at the second Gatehouse as an OpenAI chat completion, the picture as an image part',
      );
      await recorded(
        gateway,
        { path: '/v1beta/models/gpt-4o-mini:countTokens' },
        (entry) => entry.token === 'gemini-cli' && entry.status === 200,
        "the picture's tokens counted",
      );
    } finally {
      await gateway.stop();
    }
  });

  test("(d) a tool call round trip, translated: the OpenAI channel's read_file call runs in the CLI and its result comes back as a tool message", async () => {
    const { home, project } = sandbox();
    writeFileSync(path.join(project, 'notes.txt'), 'the launch code is ORCHID-42\n');
    // The second Gatehouse, scripted as an OpenAI model would act: first read the file, then answer from its content.
    const fixtures = await request(`${upstream.url}/admin/api/fixtures`, 'POST', {
      token: upstream.gateway.adminToken,
      body: {
        fixtures: [
          {
            name: 'read-notes',
            match: { endpoint: 'chat-completions', turn: 0, user: 'my notes', tools: 'read_file' },
            response: { tool_calls: [{ name: 'read_file', arguments: { file_path: 'notes.txt' } }] },
          },
          {
            name: 'answer-notes',
            match: { endpoint: 'chat-completions', turn: 1, tool_result: { regex: 'ORCHID-42' } },
            response: { text: 'Your notes give the launch code ORCHID-42.' },
          },
        ],
      },
    });
    assert.equal(fixtures.status, 200, JSON.stringify(fixtures.body));
    const gateway = await channelGateway(home, openAiUp());
    try {
      await connect(gateway, 'gpt-4o-mini', project);
      const run = await geminiPrompt(home, project, 'What do my notes say?');
      assert.equal(run.code, 0, `gemini -p succeeded:\n${run.output}`);
      assert.match(run.stdout, /Your notes give the launch code ORCHID-42\./);
      // Both turns went through the gateway (the second, with the tool result, is recorded a moment after the first).
      await eventually(
        async () => ((await generationsOf(gateway, 'gpt-4o-mini')).length >= 2 ? true : undefined),
        'both turns in the journal',
      );
      // The answer's fixture matches only an OpenAI call whose last message is a tool result holding the file's text.
      const listed = await request(`${upstream.url}/admin/api/fixtures`, 'GET', { token: upstream.gateway.adminToken });
      const matched = Object.fromEntries(
        (listed.body.fixtures as { label: string; matched: number }[]).map((item) => [item.label, item.matched]),
      );
      assert.deepEqual([matched['read-notes'], matched['answer-notes']], [1, 1], JSON.stringify(listed.body.fixtures));
    } finally {
      await gateway.stop();
    }
  });
});

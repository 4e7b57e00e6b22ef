// Integration tests of `gatehouse channel presets|add --preset|models|test --all` through real CLI processes, against an Ollama-like stand-in and a second Gatehouse.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CHANNEL_PRESETS } from '../../shared/channel-presets.ts';
import type { ChannelSummary } from '../../shared/channels.ts';
import { runCli, runCliAsync } from '../helpers/cli.ts';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import type { HostileUpstream } from '../helpers/hostile-upstream.ts';
import { ollamaStandIn, STAND_IN_ANSWER } from '../helpers/ollama-stand-in.ts';

const dirs = tempDirs();
let dataDir: string;
let ollama: HostileUpstream;
let upstream: TestGateway;
/** One `gatehouse channel …` on the test's data dir, keys in its secrets file; SIM_KEY holds the second Gatehouse's token. */
const channel = (...args: string[]) =>
  runCliAsync(['channel', ...args, '--data-dir', dataDir, '--secrets', 'file'], { SIM_KEY: upstream.token, BAD_KEY: 'sk-bad-0000-key' });

before(async () => {
  dataDir = dirs.fresh();
  ollama = await ollamaStandIn();
  upstream = await startGateway();
});
after(async () => {
  await ollama.close();
  await upstream.stop();
  dirs.removeAll();
});

test('presets lists every preset with its base URL and output-limit field', () => {
  const listed = runCli(['channel', 'presets']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.lines.length, CHANNEL_PRESETS.length);
  assert.match(listed.stdout, /^ollama\tOllama\topenai\thttp:\/\/127\.0\.0\.1:11434\/v1\tmax_tokens\t/m);
  assert.match(listed.stdout, /^openai\tOpenAI\topenai\thttps:\/\/api\.openai\.com\/v1\tmax_completion_tokens\t/m);
  assert.match(listed.stdout, /^lm-studio\t.*\thttp:\/\/127\.0\.0\.1:1234\/v1\t/m);
});

test('add --preset fills the channel; models --save reads the local list; test prints the model and the answer', async () => {
  const added = await channel('add', '--preset', 'ollama', '--base-url', `${ollama.url}/v1`);
  assert.equal(added.code, 0, added.stderr);
  const [created] = JSON.parse(runCli(['channel', 'list', '--json', '--data-dir', dataDir]).stdout) as ChannelSummary[];
  assert.equal(created!.name, 'ollama');
  assert.equal(created!.compat, 'compatible');

  const models = await channel('models', 'ollama', '--save');
  assert.equal(models.code, 0, models.stderr);
  assert.deepEqual(models.lines, ['llama3.2:3b', 'qwen3:8b']);
  assert.match(models.stderr, /now serves llama3\.2:3b, qwen3:8b/);

  const tested = await channel('test', 'ollama');
  assert.equal(tested.code, 0, tested.stderr);
  assert.match(
    tested.stdout,
    new RegExp(`^ok \\d+ ms \\(llama3\\.2:3b\\): ${JSON.stringify(STAND_IN_ANSWER).replace(/[.?!]/g, '\\$&')}$`, 'm'),
  );
});

test('a preset with a placeholder needs --base-url; an unknown preset names the known ones', async () => {
  const azure = await channel('add', '--preset', 'azure-openai', '--key-env', 'SIM_KEY');
  assert.equal(azure.code, 2);
  assert.match(azure.stderr, /--preset azure-openai needs --base-url: .*YOUR-RESOURCE/);
  const unknown = await channel('add', '--preset', 'nope');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--preset must be one of openai, anthropic, gemini, ollama/);
});

test('test --all prints a line per channel and exits 1 when one fails (a bad key: HTTP 401, the key hidden)', async () => {
  assert.equal(
    (
      await channel(
        'add',
        '--preset',
        'anthropic',
        '--name',
        'claude',
        '--base-url',
        upstream.url,
        '--models',
        'sim-chat',
        '--key-env',
        'SIM_KEY',
      )
    ).code,
    0,
  );
  const good = await channel('test', '--all');
  assert.equal(good.code, 0, good.stderr + good.stdout);
  assert.match(good.stdout, /^ollama\tok \d+ ms \(llama3\.2:3b\): /m);
  assert.match(good.stdout, /^claude\tok \d+ ms \(sim-chat\): ".+"$/m);

  assert.equal((await channel('update', 'claude', '--key-env', 'BAD_KEY')).code, 0);
  const bad = await channel('test', '--all');
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /^claude\tfailed after \d+ ms: HTTP 401: /m);
  assert.ok(!bad.stdout.includes('sk-bad-0000-key'));
});

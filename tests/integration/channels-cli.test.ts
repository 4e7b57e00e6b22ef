// Integration tests of `gatehouse channel` through real CLI processes: keys only in the keychain, --secrets none, a running server sees changes, `test` against a second gateway.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ChannelSummary } from '../../shared/channels.ts';
import { openKeychainStore } from '../../electron/gateway/secrets/keychain-store.ts';
import { adminTokenOf, privateServeArgs, runCli, runCliAsync, serveCli } from '../helpers/cli.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { deadPort } from '../helpers/ports.ts';

const keychain = await openKeychainStore().then(
  () => ({ ok: true, reason: '' }),
  (error: Error) => ({ ok: false, reason: error.message }),
);
const needsKeychain = keychain.ok
  ? false
  : `no Secret Service answered here (${keychain.reason}); npm test runs these inside gnome-keyring`;

const dirs = tempDirs();
after(() => dirs.removeAll());

describe('gatehouse channel with the OS keychain', { skip: needsKeychain }, () => {
  let upstream: TestGateway;
  let dataDir: string;
  const channel = (...args: string[]) =>
    runCliAsync(['channel', ...args, '--data-dir', dataDir, '--secrets', 'keychain'], { SIM_KEY: upstream.token });

  before(async () => {
    // A second Gatehouse in simulate mode stands in for the upstream; its API token is the channel's key.
    upstream = await startGateway();
    dataDir = dirs.fresh();
  });
  after(async () => {
    for (const name of ['sim-openai', 'sim-anthropic', 'sim-gemini', 'dead']) await channel('remove', name);
    await upstream.stop();
  });

  test('add --key-stdin prints the id last; list shows the hint, never the key; no file of the data dir holds it', () => {
    const added = runCli(
      [
        'channel',
        'add',
        '--name',
        'sim-openai',
        '--kind',
        'openai',
        '--base-url',
        `${upstream.url}/v1`,
        '--models',
        'gpt-local=sim-chat, sim-echo',
        '--header',
        'X-Tenant: acme',
        '--key-stdin',
        '--data-dir',
        dataDir,
        '--secrets',
        'keychain',
      ],
      {},
      `${upstream.token}\n`,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.lines.at(-1)!, /^ch_[A-Za-z0-9]{20}$/);
    const hint = `${upstream.token.slice(0, 3)}…${upstream.token.slice(-4)}`;
    const listed = runCli(['channel', 'list', '--data-dir', dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /sim-openai\topenai\t/);
    assert.ok(listed.stdout.includes(`key ${hint}`), listed.stdout);
    assert.ok(!listed.stdout.includes(upstream.token));
    const json = JSON.parse(runCli(['channel', 'list', '--json', '--data-dir', dataDir]).stdout) as ChannelSummary[];
    assert.equal(json[0]!.key_hint, hint);
    assert.deepEqual(json[0]!.headers, { 'X-Tenant': 'acme' });
    assert.equal(json[0]!.models, 'gpt-local=sim-chat, sim-echo');
    const grep = spawnSync('grep', ['-rl', upstream.token, dataDir], { encoding: 'utf8' });
    assert.equal(grep.stdout, '', 'the key is in no file of the data dir');
  });

  test('test calls the upstream and prints ok with the latency, for each kind', async () => {
    assert.match((await channel('test', 'sim-openai')).stdout, /^ok \d+ ms \(sim-chat\): ".+"$/m);
    const chat = await channel('test', 'sim-openai', '--model', 'gpt-local');
    assert.equal(chat.code, 0, chat.stderr);
    for (const [name, kind, base] of [
      ['sim-anthropic', 'anthropic', upstream.url],
      ['sim-gemini', 'gemini', upstream.url],
    ] as const) {
      const added = await channel(
        'add',
        '--name',
        name,
        '--kind',
        kind,
        '--base-url',
        base,
        '--models',
        'sim-chat',
        '--key-env',
        'SIM_KEY',
      );
      assert.equal(added.code, 0, added.stderr);
      const tested = await channel('test', name);
      assert.equal(tested.code, 0, tested.stderr);
      assert.match(tested.stdout, /^ok \d+ ms \(sim-chat\): ".+"$/m);
    }
    const health = JSON.parse(runCli(['channel', 'list', '--json', '--data-dir', dataDir]).stdout) as ChannelSummary[];
    for (const item of health) assert.equal(typeof item.health.last_latency_ms, 'number', item.name);
  });

  test('a wrong key prints the upstream status and message and exits 1; a dead port prints why and exits 1', async () => {
    const wrong = runCli(
      ['channel', 'update', 'sim-gemini', '--key-stdin', '--data-dir', dataDir, '--secrets', 'keychain'],
      {},
      'sk-gh-wrong-key-1234\n',
    );
    assert.equal(wrong.code, 0, wrong.stderr);
    const refused = await channel('test', 'sim-gemini');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /HTTP 401: /);
    assert.ok(!refused.stderr.includes('sk-gh-wrong-key-1234'));

    const port = await deadPort();
    assert.equal((await channel('add', '--name', 'dead', '--kind', 'openai', '--base-url', `http://127.0.0.1:${port}/v1`)).code, 0);
    const dead = await channel('test', 'dead');
    assert.equal(dead.code, 1);
    assert.match(dead.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models: ECONNREFUSED/);
    assert.equal(dead.stdout, '');
    assert.match(runCli(['channel', 'list', '--data-dir', dataDir]).stdout, /dead\t.*1 failure\(s\) in a row; last error: cannot reach/);
  });
});

test('--secrets none refuses a keyed channel naming the --secrets to use; a keyless one is added', () => {
  const dataDir = dirs.fresh();
  const keyed = runCli(
    [
      'channel',
      'add',
      '--name',
      'k',
      '--kind',
      'openai',
      '--base-url',
      'https://api.openai.com/v1',
      '--key-stdin',
      '--data-dir',
      dataDir,
      '--secrets',
      'none',
    ],
    {},
    'sk-never-stored-123456\n',
  );
  assert.equal(keyed.code, 2);
  assert.match(keyed.stderr, /--secrets none.*use --secrets keychain .* or --secrets file/);
  assert.ok(!keyed.stderr.includes('sk-never-stored-123456'));
  const local = runCli([
    'channel',
    'add',
    '--name',
    'ollama',
    '--kind',
    'openai',
    '--base-url',
    'http://127.0.0.1:11434/v1',
    '--data-dir',
    dataDir,
    '--secrets',
    'none',
  ]);
  assert.equal(local.code, 0, local.stderr);
  assert.match(runCli(['channel', 'list', '--data-dir', dataDir]).stdout, /ollama\topenai\thttp:\/\/127\.0\.0\.1:11434\/v1\t.*no key/);
});

test('bad flags are usage errors naming the flag', () => {
  const dataDir = dirs.fresh();
  const add = (...args: string[]) => runCli(['channel', 'add', '--name', 'x', '--data-dir', dataDir, ...args]);
  assert.match(add('--kind', 'mistral', '--base-url', 'https://x.example').stderr, /--kind must be one of openai, anthropic, gemini/);
  assert.match(add('--kind', 'openai', '--base-url', 'http://x.example').stderr, /--base-url must use https/);
  assert.match(add('--kind', 'openai', '--base-url', 'https://x.example', '--models', 'a=b=c').stderr, /--models: "a=b=c"/);
  assert.match(add('--kind', 'openai', '--base-url', 'https://x.example', '--weight', 'two').stderr, /--weight must be a whole number/);
  assert.match(add('--kind', 'openai', '--base-url', 'https://x.example', '--header', 'NoColon').stderr, /'Name: value'/);
  assert.equal(add('--kind', 'openai', '--base-url', 'https://x.example', '--key', 'sk-x').code, 2, 'no --key flag: keys never go in argv');
  assert.match(runCli(['channel', 'remove', 'nothing', '--data-dir', dataDir, '--secrets', 'none']).stderr, /No channel named "nothing"/);
});

test('--timeout-ms, --idle-timeout-ms and --deadline-ms set the channel limits; list shows them; a bad value names its flag', () => {
  const dataDir = dirs.fresh();
  const cli = (...args: string[]) => runCli(['channel', ...args, '--data-dir', dataDir, '--secrets', 'none']);
  const base = ['--kind', 'openai', '--base-url', 'http://127.0.0.1:11434/v1'];
  assert.equal(cli('add', '--name', 'slow', ...base, '--idle-timeout-ms', '600000', '--deadline-ms', '3600000').code, 0);
  const [listed] = JSON.parse(cli('list', '--json').stdout) as ChannelSummary[];
  assert.deepEqual([listed!.timeout_ms, listed!.idle_timeout_ms, listed!.deadline_ms], [60_000, 600_000, 3_600_000]);
  assert.match(cli('list').stdout, /timeout 60000 ms\tidle timeout 600000 ms\tdeadline 3600000 ms/);
  assert.equal(cli('update', 'slow', '--deadline-ms', '90000').code, 0);
  assert.equal((JSON.parse(cli('list', '--json').stdout) as ChannelSummary[])[0]!.deadline_ms, 90_000);
  const bad = cli('update', 'slow', '--idle-timeout-ms', '5');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--idle-timeout-ms must be a whole number from 100/);
});

test('a channel added, changed and removed by the CLI is seen by a running server on its next call', async () => {
  const dataDir = dirs.fresh();
  const server = await serveCli(privateServeArgs(dataDir));
  try {
    const adminToken = await adminTokenOf(server);
    const list = async () =>
      ((await request(`${server.url}/admin/api/channels`, 'GET', { token: adminToken })).body as ChannelSummary[]).map(
        (item) => `${item.name}:${item.enabled}`,
      );
    assert.deepEqual(await list(), []);
    // Not runCli: spawnSync would stop this process's event loop while its HTTP client keeps an idle connection to the
    // server, so the client could not retire it before the server's keep-alive timeout and the next request would be cut.
    const cli = (...args: string[]) => runCliAsync(['channel', ...args, '--data-dir', dataDir, '--secrets', 'none']);
    assert.equal((await cli('add', '--name', 'live', '--kind', 'openai', '--base-url', 'http://127.0.0.1:11434/v1')).code, 0);
    assert.deepEqual(await list(), ['live:true']);
    assert.equal((await cli('update', 'live', '--enabled', 'false')).code, 0);
    assert.deepEqual(await list(), ['live:false']);
    assert.equal((await cli('remove', 'live')).code, 0);
    assert.deepEqual(await list(), []);
  } finally {
    await server.stop();
  }
});

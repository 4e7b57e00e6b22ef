// Integration test of `gatehouse serve` on a machine without a Secret Service (a private D-Bus session with no keyring): the real cause is named, one console token serves every session, and the one-click change to the file store keeps keyed channels and a stable console address.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { adminTokenOf, consoleUrlOf, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, tempDataDir } from '../helpers/gateway.ts';
import { noKeyringSkipReason, startNoKeyringBus, type NoKeyringBus } from '../helpers/no-keyring.ts';
import { deadPort } from '../helpers/ports.ts';

const skip = noKeyringSkipReason();
if (skip) console.log(`# skipping the no-keychain tests: ${skip}`);

const NO_SECRET_SERVICE = 'no keychain was found (no Secret Service on this machine)';

describe('gatehouse serve where no keychain answers', { skip }, () => {
  const dataDir = tempDataDir();
  const settingsFile = path.join(dataDir, 'settings.json');
  let bus: NoKeyringBus;
  let port: number;
  let server: ServeProcess | undefined;
  // The settings file is the default one of a base dir (as for a user), not a flag: the saved secret store is not pinned.
  const start = async () => {
    server = await serveCli(['--port', String(port), '--tls-port', 'off', '--settings-file', settingsFile], {
      ...bus.env,
      GATEHOUSE_DATA_DIR: dataDir,
    });
    return await adminTokenOf(server);
  };
  const admin = (method: string, route: string, token: string, body?: unknown) =>
    request(`${server!.url}/admin/api${route}`, method, { token, ...(body !== undefined && { body }) });
  const keyedChannel = (name: string) => ({
    name,
    kind: 'openai',
    base_url: 'https://api.openai.com/v1',
    key: 'sk-upstream-key-123456789',
  });

  before(async () => {
    bus = await startNoKeyringBus();
    port = await deadPort();
  });
  after(async () => {
    await server?.stop();
    bus?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the start names the real cause and offers the locked file in one sentence; keyed channels are refused naming it', async () => {
    const token = await start();
    assert.match(server!.stderr(), new RegExp(`warning: ${NO_SECRET_SERVICE.replace(/[()]/g, '\\$&')}`));
    assert.match(
      server!.stderr(),
      /choose "a locked file in the data dir" under Secret store on the console's Settings page \(or pass --secrets file\): secrets are then kept in secrets\.json in the data dir, a plain-text file only your user can read \(mode 0600\)/,
    );
    const status = await admin('GET', '/status', token);
    assert.equal(status.body.secrets.kind, 'none');
    assert.equal(status.body.secrets.cause, NO_SECRET_SERVICE);
    const refused = await admin('POST', '/channels', token, keyedChannel('openai'));
    assert.equal(refused.status, 400);
    assert.ok(refused.body.error.message.includes(NO_SECRET_SERVICE), refused.body.error.message);
    assert.ok(!refused.body.error.message.includes('--secrets none'), 'the user never passed --secrets none');
  });

  test('five console sessions share one console token', async () => {
    const token = await adminTokenOf(server!);
    const keys = [];
    for (let session = 0; session < 5; session += 1) keys.push((await admin('POST', '/accounts/local/console-key', token)).body);
    assert.equal(new Set(keys.map((key) => key.secret)).size, 1, 'every session gets the same key');
    const tokens = (await admin('GET', '/tokens?account=local', token)).body as { name: string; token_id: string }[];
    assert.deepEqual(
      tokens.filter((item) => item.name === 'console').map((item) => item.token_id),
      [keys[0].token_id],
    );
    const models = await fetch(`${server!.url}/v1/models`, { headers: { authorization: `Bearer ${keys[0].secret}` } });
    assert.equal(models.status, 200, 'the key is a working API token');
  });

  test('the one-click change to the file store: the same tab keeps working, keyed channels are kept, and the address stays across restarts', async () => {
    const perRunAddress = await consoleUrlOf(server!);
    const token = new URL(perRunAddress).searchParams.get('admin_token')!;
    const view = (await admin('GET', '/settings', token)).body;
    assert.equal(view.pinned.secrets, undefined, 'no flag pins the secret store');
    assert.equal((await admin('PUT', '/settings', token, { ...view.saved, secrets: 'file' })).status, 200);
    assert.equal(JSON.parse(readFileSync(settingsFile, 'utf8')).secrets, 'file');
    const startedAt = (await admin('GET', '/status', token)).body.startedAt;
    assert.equal((await admin('POST', '/restart', token)).status, 200);
    const status = await eventually(async () => {
      const answer = await admin('GET', '/status', token).catch(() => null);
      return answer?.status === 200 && answer.body.startedAt !== startedAt && answer.body;
    }, 'the restarted run answering the same admin token');
    assert.equal(status.secrets.kind, 'file');
    const added = await admin('POST', '/channels', token, keyedChannel('openai'));
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(added.body.key_hint, 'sk-…6789');

    // A new process on the same data dir: the same console address, and the channel's key is still there.
    await server!.stop();
    const again = await start();
    assert.equal(again, token, 'the console address is the same after a restart of the process');
    assert.equal(await consoleUrlOf(server!), perRunAddress);
    assert.doesNotMatch(server!.stderr(), /no keychain was found/);
    const listed = (await admin('GET', '/channels', again)).body as { name: string; key_hint: string }[];
    assert.equal(listed.find((channel) => channel.name === 'openai')?.key_hint, 'sk-…6789');
    assert.ok(!readFileSync(path.join(dataDir, 'settings.json'), 'utf8').includes('sk-upstream-key'), 'no secret in the settings file');
  });

  test('the CLI commands take the saved secret store too: a token made by `gatehouse token create` is kept in the file', async () => {
    const made = await runCliAsync(['token', 'create', '--account', 'cli', '--data-dir', dataDir], {
      ...bus.env,
      GATEHOUSE_SETTINGS_FILE: settingsFile,
    });
    assert.equal(made.code, 0, made.stderr);
    assert.doesNotMatch(made.stderr, /no keychain was found/);
    const tokenId = made.lines[0]!.split('\t')[0]!;
    const kept = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    assert.equal(kept[`token:${tokenId}`], made.lines.at(-1));
  });

  test('`gatehouse connect` takes the saved secret store too: its tool token is kept in the file and reused by the next connect', async () => {
    const home = tempDataDir();
    const connect = () =>
      runCliAsync(['connect', 'claude-code', '--data-dir', dataDir, '--url', 'http://127.0.0.1:18790'], {
        ...bus.env,
        GATEHOUSE_SETTINGS_FILE: settingsFile,
        GATEHOUSE_HOME_DIR: home,
      });
    try {
      const first = await connect();
      assert.equal(first.code, 0, first.stderr);
      assert.doesNotMatch(first.stderr, /no keychain was found/);
      const written = () => JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8')).env.ANTHROPIC_AUTH_TOKEN;
      const token = written();
      const kept = Object.values(JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>);
      assert.ok(kept.includes(token), 'the token written in the tool config is kept in the file store');
      const second = await connect();
      assert.equal(second.code, 0, second.stderr);
      assert.equal(written(), token, 'the second connect reuses the kept token');
      const listed = await runCliAsync(['token', 'list', '--data-dir', dataDir], { ...bus.env, GATEHOUSE_SETTINGS_FILE: settingsFile });
      assert.equal(listed.stdout.match(/claude-code/g)?.length, 1, listed.stdout);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

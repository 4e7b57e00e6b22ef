// The commands besides serve work on the database the server uses when its data folder was moved in the saved settings (the console's Settings page): a token made by `gatehouse token create` is accepted, a price set by `gatehouse price set` is the server's.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { adminTokenOf, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-saved-dir-'));
/** The user's config folder: its Gatehouse folder is the default data dir, which holds the settings file. */
const env: NodeJS.ProcessEnv = {
  // Every GATEHOUSE_* variable of the machine's environment unset (an empty one is unset), so only the saved settings speak.
  ...Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => name.startsWith('GATEHOUSE_'))
      .map((name) => [name, '']),
  ),
  XDG_CONFIG_HOME: path.join(root, 'config'),
};
const defaultDir = path.join(root, 'config', 'Gatehouse');
/** Where the saved settings moved the data. */
const movedDir = path.join(root, 'moved');
let server: ServeProcess;

before(async () => {
  mkdirSync(defaultDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(defaultDir, 'settings.json'), JSON.stringify({ dataDir: movedDir, secrets: 'none' }), { mode: 0o600 });
  server = await serveCli(['--port', '0', '--tls-port', 'off'], env);
});
after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

test('gatehouse token create, run with no --data-dir, makes a token the server started from the saved settings accepts', async () => {
  assert.ok(existsSync(path.join(movedDir, 'gatehouse.sqlite')), 'the server keeps its data in the saved folder');
  const made = await runCliAsync(['token', 'create', '--account', 'ci'], env);
  assert.equal(made.code, 0, made.stderr);
  // The last line is the token itself (the one before describes it, its secret shortened).
  const secret = made.stdout.trim().split('\n').at(-1);
  assert.match(secret ?? '', /^sk-gh-[A-Za-z0-9]+$/);
  const answer = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(answer.status, 200, 'the new token is in the server’s database');
  assert.equal(existsSync(path.join(defaultDir, 'gatehouse.sqlite')), false, 'no second database in the default folder');
});

test('gatehouse price set, run with no --data-dir, sets the price the server lists', async () => {
  const set = await runCliAsync(['price', 'set', 'sim-chat', '--input-per-mtok', '7', '--output-per-mtok', '9'], env);
  assert.equal(set.code, 0, set.stderr);
  const adminToken = await adminTokenOf(server);
  const listed = await fetch(`${server.url}/admin/api/prices/sim-chat`, { headers: { authorization: `Bearer ${adminToken}` } });
  assert.equal(listed.status, 200);
  assert.match(JSON.stringify(await listed.json()), /"input_per_mtok":"?7/);
});

test('gatehouse cassette verify still checks the cassettes when the settings file is broken, and says no key was checked', async () => {
  const broken = path.join(root, 'broken-settings.json');
  writeFileSync(broken, '{ "dataDir": ');
  const cassettes = path.join(root, 'cassettes');
  mkdirSync(cassettes);
  writeFileSync(path.join(cassettes, 'notes.txt'), 'Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123456789\n');
  const checked = await runCliAsync(['cassette', 'verify', cassettes], { ...env, GATEHOUSE_SETTINGS_FILE: broken });
  assert.match(checked.stderr, /note: no channel key checked: .*broken-settings\.json/);
  assert.equal(checked.code, 1, 'the key shape in the folder is still found');
  assert.match(checked.stdout + checked.stderr, /notes\.txt/);
});

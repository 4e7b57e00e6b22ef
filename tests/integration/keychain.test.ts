// Integration tests of the keychain SecretStore against a real Secret Service, and of the serve fallback when none answers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openKeychainStore } from '../../electron/gateway/secrets/keychain-store.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { randomBase62 } from '../../electron/gateway/ids.ts';
import { CLI } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const keychain = await openKeychainStore().then(
  (store) => ({ store, reason: '' }),
  (error: Error) => ({ store: undefined, reason: error.message }),
);
if (!keychain.store)
  console.log(
    `# keychain tests skip: no Secret Service answered here (${keychain.reason}); npm test runs them inside dbus-run-session with gnome-keyring`,
  );

test('the keychain store keeps, returns and deletes a secret', { skip: keychain.store ? false : keychain.reason }, async () => {
  const store = keychain.store!;
  const key = `token:test_${randomBase62(8)}`;
  await store.set(key, 'sk-gh-secret-value');
  assert.equal(await store.get(key), 'sk-gh-secret-value');
  assert.equal(await store.delete(key), true);
  assert.equal(await store.get(key), null);
});

test(
  'token create with --secrets keychain stores the token there and nowhere in the data dir',
  { skip: keychain.store ? false : keychain.reason },
  async () => {
    const dataDir = tempDataDir();
    try {
      const result = spawnSync(
        process.execPath,
        [CLI, 'token', 'create', '--data-dir', dataDir, '--account', 'kc', '--secrets', 'keychain'],
        {
          encoding: 'utf8',
        },
      );
      assert.equal(result.status, 0, result.stderr);
      const lines = result.stdout.trim().split('\n');
      const secret = lines.at(-1)!;
      const tokenId = lines[0]!.split('\t')[0]!;
      assert.equal(await keychain.store!.get(`token:${tokenId}`), secret);
      const grep = spawnSync('grep', ['-rl', secret, dataDir], { encoding: 'utf8' });
      assert.equal(grep.stdout, '', 'the plaintext is in no file of the data dir');
      await keychain.store!.delete(`token:${tokenId}`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

test('the file store writes a 0600 file and is chosen only when asked for', async () => {
  const dataDir = tempDataDir();
  try {
    const store = openFileStore(dataDir);
    await store.set('token:a', 'one');
    await store.set('token:b', 'two');
    assert.equal(await store.get('token:a'), 'one');
    assert.equal(await store.delete('token:a'), true);
    assert.equal(await store.get('token:a'), null);
    assert.equal(statSync(path.join(dataDir, 'secrets.json')).mode & 0o777, 0o600);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('with no keychain, --secrets auto says so and keeps no copy of the token', () => {
  const dataDir = tempDataDir();
  try {
    // No saved settings: a secret store saved by another test of the run must not choose for this one.
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', GATEHOUSE_SETTINGS_FILE: 'off' };
    const result = spawnSync(process.execPath, [CLI, 'token', 'create', '--data-dir', dataDir, '--account', 'nokc'], {
      env,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /no keychain was found \(no D-Bus session on this machine/);
    const secret = result.stdout.trim().split('\n').at(-1)!;
    assert.equal(spawnSync('grep', ['-rl', secret, dataDir], { encoding: 'utf8' }).stdout, '');
    const strict = spawnSync(
      process.execPath,
      [CLI, 'token', 'create', '--data-dir', dataDir, '--account', 'nokc', '--secrets', 'keychain'],
      { env, encoding: 'utf8' },
    );
    assert.equal(strict.status, 1, '--secrets keychain fails when no keychain answers');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

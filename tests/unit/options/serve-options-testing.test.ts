// Unit tests of serve's CI options: --ephemeral (no data dir flag, no keychain, no saved settings), --ready-json, and the admin and API tokens read from the environment only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveServeOptions, UsageError } from '../../../electron/gateway/options/serve-options.ts';

const resolve = (args: string[], env: NodeJS.ProcessEnv = {}) => resolveServeOptions(args, env, '/tmp/gatehouse-none');
const usage = (pattern: RegExp) => (error: unknown) => error instanceof UsageError && pattern.test(error.message);

test('--ephemeral (or GATEHOUSE_EPHEMERAL=1) reads no settings file and keeps no secret unless told, and refuses a data dir', () => {
  const plain = resolve([]);
  assert.equal(plain.ephemeral, false);
  assert.equal(plain.secrets, 'auto');
  assert.notEqual(plain.settingsFile, null);
  for (const options of [resolve(['--ephemeral']), resolve([], { GATEHOUSE_EPHEMERAL: '1' })]) {
    assert.equal(options.ephemeral, true);
    assert.equal(options.secrets, 'none');
    assert.equal(options.settingsFile, null);
  }
  assert.equal(resolve(['--ephemeral', '--secrets', 'file']).secrets, 'file', 'a store named still wins');
  assert.throws(() => resolve(['--ephemeral', '--data-dir', '/tmp/x']), usage(/--ephemeral .* --data-dir/));
  assert.throws(() => resolve([], { GATEHOUSE_EPHEMERAL: 'yes' }), usage(/GATEHOUSE_EPHEMERAL must be 1, true or on, or 0, false or off/));
});

test('--ready-json (or GATEHOUSE_READY_JSON=1) is off unless asked', () => {
  assert.equal(resolve([]).readyJson, false);
  assert.equal(resolve(['--ready-json']).readyJson, true);
  assert.equal(resolve([], { GATEHOUSE_READY_JSON: '1' }).readyJson, true);
});

test('GATEHOUSE_ADMIN_TOKEN and GATEHOUSE_TOKEN are read from the environment, checked, and never echoed in the error', () => {
  const options = resolve([], { GATEHOUSE_ADMIN_TOKEN: 'a'.repeat(16), GATEHOUSE_TOKEN: 'sk-' + 'b'.repeat(16) });
  assert.equal(options.adminToken, 'a'.repeat(16));
  assert.equal(options.token, 'sk-' + 'b'.repeat(16));
  assert.equal(resolve([]).adminToken, undefined);
  assert.equal(resolve([]).token, undefined);
  for (const bad of ['a'.repeat(15), 'has a space in it here', 'x'.repeat(257)])
    assert.throws(
      () => resolve([], { GATEHOUSE_ADMIN_TOKEN: bad }),
      (error: unknown) => usage(/GATEHOUSE_ADMIN_TOKEN must be/)(error) && !(error as Error).message.includes(bad),
    );
  for (const bad of ['sk-short', 'pk-' + 'b'.repeat(20), 'sk-' + 'b'.repeat(16) + '!'])
    assert.throws(
      () => resolve([], { GATEHOUSE_TOKEN: bad }),
      (error: unknown) => usage(/GATEHOUSE_TOKEN must be sk-/)(error) && !(error as Error).message.includes(bad),
    );
  assert.throws(() => resolve(['--admin-token', 'a'.repeat(16)]), UsageError, 'no flag: a secret would show in the process list');
});

// Unit tests of the shared settings rules the console and the gateway both apply: origins, hosts, ports and paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isListenHost, normalizeOrigin, validateSettings } from '../../../shared/settings.ts';

test('origins are normalized to scheme://host[:port] and anything with a path, query or other scheme is refused', () => {
  assert.equal(normalizeOrigin('HTTPS://App.Example.COM:443/'), 'https://app.example.com');
  assert.equal(normalizeOrigin('http://localhost:5173'), 'http://localhost:5173');
  assert.equal(normalizeOrigin(' * '), '*');
  for (const bad of [
    'localhost:5173',
    'ftp://x.example',
    'https://x.example/app',
    'https://x.example?q=1',
    'https://user@x.example',
    'null',
    '',
  ]) {
    assert.equal(normalizeOrigin(bad), null, bad);
  }
});

test('listen hosts are names or addresses, never URLs', () => {
  for (const good of ['127.0.0.1', '0.0.0.0', '::1', '::', 'localhost', 'my-box.lan']) assert.equal(isListenHost(good), true, good);
  for (const bad of ['http://127.0.0.1', '127.0.0.1:8790', 'a b', '', '-bad.example', '1::2::3'])
    assert.equal(isListenHost(bad), false, bad);
});

test('a whole settings object: every problem is reported at once, and clean values come back normalized', () => {
  const bad = validateSettings({ port: -1, tlsPort: 'x', refreshIntervalMs: 1.5, dataDir: 'here' });
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && bad.problems.map((problem) => problem.key), ['port', 'tlsPort', 'refreshIntervalMs', 'dataDir']);
  const good = validateSettings({ port: 0, tlsPort: null, corsOrigins: ['http://a.example', 'HTTP://A.example', ''], dataDir: '' });
  assert.deepEqual(good, { ok: true, value: { port: 0, tlsPort: null, corsOrigins: ['http://a.example'], dataDir: null } });
  assert.equal(validateSettings([]).ok, false);
  assert.equal(validateSettings({ dataDir: 'C:\\Users\\me\\Gatehouse' }).ok, true);
});

test('the secret store is a saved setting: one of auto, keychain, file and none', () => {
  assert.deepEqual(validateSettings({ secrets: 'file' }), { ok: true, value: { secrets: 'file' } });
  const bad = validateSettings({ secrets: 'vault' });
  assert.deepEqual(!bad.ok && bad.problems, [{ key: 'secrets', message: 'Secret store must be one of auto, keychain, file, none' }]);
});

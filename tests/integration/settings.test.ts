// Integration tests of saved settings: the admin API reads and writes the settings file, applies CORS and the refresh interval at once, and `gatehouse serve` starts with what was saved.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULTS } from '../../electron/gateway/config.ts';
import { adminTokenOf, runCli, serveCli } from '../helpers/cli.ts';
import { request, startGateway, tempDataDir, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';

describe('settings through the admin API', () => {
  let server: TestGateway;
  let file: string;
  let admin: (method: string, body?: unknown) => Promise<JsonResponse>;

  before(async () => {
    const folder = tempDataDir();
    file = path.join(folder, 'settings.json');
    server = await startGateway({
      dataDir: folder,
      settings: { file, defaultDataDir: folder, pinned: { host: '--host' } },
      corsOrigins: ['http://localhost:5173'],
    });
    admin = (method, body) =>
      request(`${server.url}/admin/api/settings`, method, { token: server.gateway.adminToken, ...(body !== undefined && { body }) });
  });
  after(() => server.stop());

  test('an API token cannot read or change settings', async () => {
    assert.equal((await request(`${server.url}/admin/api/settings`, 'GET', { token: server.token })).status, 401);
    assert.equal((await request(`${server.url}/admin/api/settings`, 'PUT', { token: server.token, body: { port: 1 } })).status, 401);
  });

  test('with no file yet, nothing is saved and the effective values are those of this run', async () => {
    const { status, body } = await admin('GET');
    assert.equal(status, 200);
    assert.equal(body.editable, true);
    assert.equal(body.file, file);
    assert.deepEqual(body.saved, {});
    assert.deepEqual(body.effective.corsOrigins, ['http://localhost:5173']);
    assert.equal(body.effective.refreshIntervalMs, DEFAULTS.refreshIntervalMs);
    assert.deepEqual(body.pinned, { host: '--host' });
  });

  test('bad values are refused with the field named, and the file is left as it was', async () => {
    await admin('PUT', { port: 9100 });
    const before = readFileSync(file, 'utf8');
    for (const [body, param] of [
      [{ port: 70000 }, 'port'],
      [{ port: 9100, tlsPort: 9100 }, 'tlsPort'],
      [{ corsOrigins: ['localhost:3000'] }, 'corsOrigins'],
      [{ corsOrigins: ['https://example.com/path'] }, 'corsOrigins'],
      [{ refreshIntervalMs: 10 }, 'refreshIntervalMs'],
      [{ host: 'http://127.0.0.1' }, 'host'],
      [{ dataDir: 'relative/folder' }, 'dataDir'],
      [{ colour: 'blue' }, 'colour'],
    ] as const) {
      const answer = await admin('PUT', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.param, param);
      assert.ok(answer.body.error.message.length > 10);
    }
    assert.equal(readFileSync(file, 'utf8'), before);
  });

  test('saving writes the file, applies CORS origins and the refresh interval now, and lists what waits for a restart', async () => {
    const saved = {
      host: '0.0.0.0',
      port: 9123,
      tlsPort: 9443,
      corsOrigins: ['HTTPS://App.Example.com:443/', 'http://localhost:3000'],
      refreshIntervalMs: 60_000,
    };
    const { status, body } = await admin('PUT', saved);
    assert.equal(status, 200);
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(onDisk.corsOrigins, ['https://app.example.com', 'http://localhost:3000'], 'origins are stored normalized');
    assert.equal(onDisk.port, 9123);
    assert.deepEqual(body.saved, onDisk);
    assert.deepEqual(body.effective.corsOrigins, ['https://app.example.com', 'http://localhost:3000']);
    assert.equal(body.effective.refreshIntervalMs, 60_000);
    // host is pinned by a flag on this run, so it does not wait for a restart; port and TLS do.
    assert.deepEqual([...body.restartNeeded].sort(), ['port', 'tlsPort']);

    const status2 = await request(`${server.url}/admin/api/status`, 'GET', { token: server.gateway.adminToken });
    assert.deepEqual(status2.body.corsOrigins, ['https://app.example.com', 'http://localhost:3000']);
    assert.equal(status2.body.refreshIntervalMs, 60_000);
    const nextScan = status2.body.nextScanAt as number;
    assert.ok(nextScan - Date.now() <= 60_000, `the next scan moved within the new interval (in ${nextScan - Date.now()} ms)`);

    const preflight = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 204, 'the newly saved origin is allowed without a restart');
  });

  test("a setting pinned by a flag keeps what the file held: this run's flag value never reaches the file", async () => {
    writeFileSync(file, JSON.stringify({ port: 9123 }));
    const { status, body } = await admin('PUT', { host: '0.0.0.0', port: 9124 });
    assert.equal(status, 200);
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal('host' in onDisk, false, 'host is pinned by --host on this run: not written');
    assert.equal(onDisk.port, 9124, 'an unpinned setting is saved');
    assert.equal(body.defaults.host, '127.0.0.1', 'the view says what the next start takes when the file names none');
  });

  test('a settings file that is not JSON is reported, not overwritten by a read', async () => {
    writeFileSync(file, '{ not json');
    const { status, body } = await admin('GET');
    assert.equal(status, 500);
    assert.match(body.error.message, /not valid JSON/);
    assert.equal(readFileSync(file, 'utf8'), '{ not json');
  });
});

describe('settings of a desktop server that fell back to a free port', () => {
  test('compare with the port that was meant, so no restart is asked for', async () => {
    const folder = tempDataDir();
    const file = path.join(folder, 'settings.json');
    writeFileSync(file, JSON.stringify({ port: 8790, tlsPort: null }));
    const server = await startGateway({
      dataDir: folder,
      port: 0,
      settings: { file, defaultDataDir: folder, intended: { port: 8790, tlsPort: null } },
    });
    try {
      const { body } = await request(`${server.url}/admin/api/settings`, 'GET', { token: server.gateway.adminToken });
      assert.equal(body.effective.port, 8790);
      assert.deepEqual(body.restartNeeded, []);
    } finally {
      await server.stop();
    }
  });
});

describe('settings of a gateway without a settings file', () => {
  test('are shown read-only and cannot be saved', async () => {
    const server = await startGateway();
    try {
      const token = server.gateway.adminToken;
      const view = await request(`${server.url}/admin/api/settings`, 'GET', { token });
      assert.equal(view.body.editable, false);
      const save = await request(`${server.url}/admin/api/settings`, 'PUT', { token, body: { port: 1 } });
      assert.equal(save.status, 403);
      assert.match(save.body.error.message, /no settings file/);
    } finally {
      await server.stop();
    }
  });
});

describe('gatehouse serve and the settings file', () => {
  test('starts with the saved values, lets flags win, and reports which flag pinned a setting', async () => {
    const dataDir = tempDataDir();
    const file = path.join(dataDir, 'settings.json');
    writeFileSync(file, JSON.stringify({ port: 0, tlsPort: null, corsOrigins: ['http://localhost:5173'], refreshIntervalMs: 120_000 }));
    const server = await serveCli(['--data-dir', dataDir, '--settings-file', file, '--refresh-interval-ms', '90000', '--secrets', 'none']);
    try {
      assert.ok(!server.stdout.some((line) => line.startsWith('tls listening')), 'the saved tlsPort null turns TLS off');
      const adminToken = await adminTokenOf(server);
      const { body } = await request(`${server.url}/admin/api/settings`, 'GET', { token: adminToken });
      assert.equal(body.file, file);
      assert.deepEqual(body.effective.corsOrigins, ['http://localhost:5173']);
      assert.equal(body.effective.refreshIntervalMs, 90_000, 'the flag wins over the file');
      assert.deepEqual(body.pinned, { dataDir: '--data-dir', refreshIntervalMs: '--refresh-interval-ms', secrets: '--secrets' });
      assert.deepEqual(body.restartNeeded, []);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a broken settings file stops the start with its path and the fix', () => {
    const dataDir = tempDataDir();
    const file = path.join(dataDir, 'settings.json');
    writeFileSync(file, JSON.stringify({ port: 'eighty' }));
    const result = runCli(['serve', '--data-dir', dataDir, '--settings-file', file]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`settings file .*settings\\.json has a bad value: port`));
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('--journal takes on or off', () => {
    const result = runCli(['serve', '--journal', 'maybe', '--settings-file', 'off', '--data-dir', tempDataDir()]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--journal must be on or off; got "maybe"/);
  });

  test('--cors-origins checks each origin', () => {
    const result = runCli([
      'serve',
      '--cors-origins',
      'http://localhost:3000,ftp://x',
      '--settings-file',
      'off',
      '--data-dir',
      tempDataDir(),
    ]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--cors-origins takes origins .* got "ftp:\/\/x"/);
  });
});

// Integration tests of the data dir at start: unwritable or damaged refuses with a clear message, a taken port creates nothing, owner-only modes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { createGateway } from '../../electron/gateway/index.ts';
import { noSecretStore } from '../../electron/gateway/secrets/secret-store.ts';
import { DataDirError } from '../../electron/gateway/storage/data-dir-check.ts';
import { DATABASE_FILE } from '../../electron/gateway/storage/database.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../electron/gateway/private-files.ts';
import { CLI, firstTokenOf, privateServeArgs, runCli, serveCli } from '../helpers/cli.ts';
import { request, startGateway, tempDirs } from '../helpers/gateway.ts';

const { fresh, removeAll } = tempDirs();
const modeOf = (file: string) => statSync(file).mode & 0o777;

/** A data dir holding a real database with a group in it, the gateway stopped again. */
async function populated(): Promise<string> {
  const dataDir = fresh();
  const server = await startGateway({ dataDir });
  const created = await request(`${server.url}/v1/portrait/groups`, 'POST', { token: server.token, body: { name: 'kept' } });
  assert.equal(created.body.success, true);
  await server.stop({ keepData: true });
  return dataDir;
}

/** Asserts a CLI run refused to start: exit 1, one plain message matching `pattern`, no stack trace, never `listening`. */
function assertRefused(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  assert.doesNotMatch(result.stdout, /listening/);
}

after(() => {
  removeAll();
});

describe('data dir checks at start', () => {
  test('a data dir the user cannot write refuses to start, naming the folder (run as nobody: root ignores modes)', async (t) => {
    const asRoot = process.getuid?.() === 0;
    const setpriv = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim();
    if (asRoot && !setpriv) return t.skip('running as root without setpriv: chmod does not stop root, and no other user to run as');
    const dataDir = await populated();
    // Readable by everyone, writable by its owner (root) only: the other user sees a read-only data dir.
    chmodSync(dataDir, 0o755);
    for (const name of readdirSync(dataDir)) chmodSync(path.join(dataDir, name), 0o644);
    const args = [CLI, 'serve', ...privateServeArgs(dataDir)];
    const command = asRoot
      ? [setpriv, '--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, ...args]
      : [process.execPath, ...args];
    if (!asRoot) chmodSync(dataDir, 0o555);
    const run = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', env: { ...process.env, HOME: '/tmp' }, timeout: 60_000 });
    const result = { code: run.status, stdout: run.stdout, stderr: run.stderr };
    assertRefused(result, new RegExp(`data dir ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not writable`));
    assert.match(result.stderr, /write access|--data-dir/);
  });

  test('a database failing the integrity check refuses to start: the CLI says so plainly, the library throws DataDirError', async () => {
    const dataDir = await populated();
    const file = path.join(dataDir, DATABASE_FILE);
    // Damage one index's root page: the tables still open, only an integrity check notices.
    const probe = new Database(file, { readonly: true });
    const { rootpage } = probe
      .prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY rootpage DESC")
      .get() as { rootpage: number };
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    probe.close();
    const fd = openSync(file, 'r+');
    try {
      writeSync(fd, Buffer.alloc(16, 0x5a), 0, 16, (rootpage - 1) * pageSize);
    } finally {
      closeSync(fd);
    }
    assertRefused(
      runCli(['serve', ...privateServeArgs(dataDir)]),
      /The database .* is damaged \(PRAGMA quick_check: .*\)\. Stop every Gatehouse/s,
    );
    await assert.rejects(createGateway({ dataDir, secrets: noSecretStore, port: 0 }), (error: unknown) => {
      assert.ok(error instanceof DataDirError);
      assert.equal(error.problem, 'corrupt');
      assert.equal(error.path, file);
      return true;
    });
  });

  test('a file that is not a database at all refuses to start and is left untouched', async () => {
    const dataDir = fresh();
    const file = path.join(dataDir, DATABASE_FILE);
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    const before = statSync(file).size;
    assertRefused(runCli(['serve', ...privateServeArgs(dataDir)]), new RegExp(`${DATABASE_FILE} is not a Gatehouse database`));
    const token = runCli(['token', 'list', '--data-dir', dataDir]);
    assertRefused(token, /is not a Gatehouse database/);
    assert.equal(statSync(file).size, before);
    await assert.rejects(
      createGateway({ dataDir, secrets: noSecretStore, port: 0 }),
      (error: unknown) => error instanceof DataDirError && error.problem === 'not_a_database',
    );
  });
});

describe('first start on a taken port', () => {
  test('exits with a clear message and creates no account or token', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const dataDir = fresh();
    try {
      const result = runCli(['serve', ...privateServeArgs(dataDir, { port })]);
      assertRefused(result, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
      assert.doesNotMatch(result.stdout, /sk-gh-/, 'no token printed');
      const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
      try {
        assert.equal((db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n, 0);
        assert.equal((db.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n, 0);
      } finally {
        db.close();
      }
    } finally {
      blocker.close();
    }
    // The next start on a free port is the first start: it creates and prints the token.
    const server = await serveCli(privateServeArgs(dataDir));
    try {
      assert.ok(server.stdout.some((line) => /first start: .*sk-gh-/.test(line)));
    } finally {
      await server.stop();
    }
  });
});

describe('owner-only modes', () => {
  test('data dir 0700; database, -wal, -shm, TLS files, generated files, secrets and settings 0600, whatever the umask', async () => {
    const previous = process.umask(0o022);
    const dataDir = path.join(fresh(), 'nested', 'data');
    const settingsDir = path.join(fresh(), 'config');
    try {
      const server = await serveCli([
        '--port',
        '0',
        '--tls-port',
        '0',
        '--data-dir',
        dataDir,
        '--secrets',
        'file',
        '--settings-file',
        path.join(settingsDir, 'settings.json'),
      ]);
      try {
        const token = firstTokenOf(server);
        const image = await request(`${server.url}/v1/images/generations`, 'POST', {
          token,
          body: { model: 'dall-e-3', prompt: 'a lighthouse', size: '256x256', response_format: 'url' },
        });
        assert.equal(image.status, 200, JSON.stringify(image.body));
        const consoleLine = server.stdout.find((line) => line.startsWith('console: '))!;
        const adminToken = new URL(consoleLine.slice('console: '.length)).searchParams.get('admin_token')!;
        const saved = await request(`${server.url}/admin/api/settings`, 'PUT', { token: adminToken, body: { refreshIntervalMs: 600_000 } });
        assert.ok(saved.status < 300, JSON.stringify(saved.body));

        assert.equal(modeOf(dataDir), PRIVATE_DIR_MODE);
        const files: string[] = [];
        const dirsSeen: string[] = [];
        const walk = (dir: string) => {
          for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
              dirsSeen.push(full);
              walk(full);
            } else files.push(full);
          }
        };
        walk(dataDir);
        for (const name of [
          DATABASE_FILE,
          `${DATABASE_FILE}-wal`,
          `${DATABASE_FILE}-shm`,
          'secrets.json',
          'tls/ca-key.pem',
          'tls/ca.pem',
          'tls/server.pem',
        ]) {
          assert.ok(files.includes(path.join(dataDir, name)), `${name} exists`);
        }
        assert.ok(
          files.some((file) => file.includes(`${path.sep}files${path.sep}`)),
          'a generated file exists',
        );
        for (const file of files) assert.equal(modeOf(file), PRIVATE_FILE_MODE, `${file} is 0600`);
        for (const dir of dirsSeen) assert.equal(modeOf(dir), PRIVATE_DIR_MODE, `${dir} is 0700`);
        assert.equal(modeOf(path.join(settingsDir, 'settings.json')), PRIVATE_FILE_MODE);
        assert.equal(modeOf(settingsDir), PRIVATE_DIR_MODE);
      } finally {
        await server.stop();
      }
    } finally {
      process.umask(previous);
    }
  });

  test('an existing data dir and database left readable by others are tightened at start', async () => {
    const dataDir = await populated();
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, DATABASE_FILE), 0o644);
    const server = await startGateway({ dataDir });
    try {
      assert.equal(modeOf(dataDir), PRIVATE_DIR_MODE);
      assert.equal(modeOf(path.join(dataDir, DATABASE_FILE)), PRIVATE_FILE_MODE);
      assert.equal(modeOf(path.join(dataDir, `${DATABASE_FILE}-wal`)), PRIVATE_FILE_MODE);
    } finally {
      await server.stop({ keepData: true });
    }
  });
});

// Integration test of `npm run dist`'s packaging step: electron-builder assembles the Linux app from the real config (with a stand-in Electron binary, which cannot be downloaded here), and the packaged files alone start the gateway.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { extractAll, listPackage } from '@electron/asar';
import { ensureBuilt, ROOT } from '../helpers/build.ts';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

describe('desktop packaging (electron-builder --linux dir)', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-dist-'));
  const output = path.join(work, 'dist');
  const app = path.join(output, 'linux-unpacked');
  const asar = path.join(app, 'resources', 'app.asar');
  let files: string[];

  before(async () => {
    await ensureBuilt();
    // What electron-builder copies as "Electron": an executable it renames to the app's name. The real one is a download away.
    const electronDist = path.join(work, 'electron-dist');
    mkdirSync(path.join(electronDist, 'resources'), { recursive: true });
    writeFileSync(path.join(electronDist, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary"\n');
    chmodSync(path.join(electronDist, 'electron'), 0o755);
    const result = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/electron-builder/cli.js'),
        '--linux',
        'dir',
        `--config.electronDist=${electronDist}`,
        `--config.directories.output=${output}`,
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    assert.equal(result.status, 0, `electron-builder failed:\n${result.stdout}\n${result.stderr}`);
    files = listPackage(asar, { isPack: false }).map((file) => file.replaceAll('\\', '/'));
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  test('the app is named after the package and carries the built bundles, its icon and package.json', () => {
    assert.ok(statSync(path.join(app, pkg.name)).mode & 0o111, 'the executable is renamed to the package name');
    for (const file of [
      '/out/main/index.js',
      '/out/main/media-worker.js',
      '/out/main/wal-checkpoint-worker.js',
      '/out/main/journal-worker.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/resources/icon.png',
      '/package.json',
    ]) {
      assert.ok(files.includes(file), `${file} is packaged`);
    }
    assert.equal(
      files.some((file) => file.startsWith('/out/.build-')),
      false,
      'no test build stamps',
    );
    assert.equal(
      files.some((file) => /^\/(electron|renderer|tests|scripts)\//.test(file)),
      false,
      'no sources',
    );
  });

  test('every runtime dependency is packaged and no development one is', () => {
    for (const name of Object.keys(pkg.dependencies))
      assert.ok(files.includes(`/node_modules/${name}/package.json`), `${name} is packaged`);
    for (const name of ['electron', 'react', 'openai', 'typescript', 'electron-builder', 'vite']) {
      assert.equal(files.includes(`/node_modules/${name}/package.json`), false, `${name} stays out`);
    }
  });

  test('native modules sit outside the archive, where Electron can load them', () => {
    const unpacked = path.join(app, 'resources', 'app.asar.unpacked', 'node_modules');
    const natives = spawnSync('find', [unpacked, '-name', '*.node'], { encoding: 'utf8' }).stdout;
    assert.match(natives, /better-sqlite3\/prebuilds\/linux-x64\.node/);
    assert.equal(
      files.some((file) => file.startsWith('/node_modules/better-sqlite3/deps/')),
      false,
      'no SQLite C sources',
    );
    if (existsSync(path.join(ROOT, 'node_modules/keytar/build/Release/keytar.node')))
      assert.match(natives, /keytar\/build\/Release\/keytar\.node/);
  });

  test('the packaged files alone start the gateway and serve the console', async () => {
    // Extracted outside the checkout, so nothing resolves from the project's own node_modules.
    const extracted = path.join(work, 'extracted');
    extractAll(asar, extracted);
    cpSync(path.join(app, 'resources', 'app.asar.unpacked'), extracted, { recursive: true });
    const appData = path.join(work, 'app-data');
    const child = spawn(process.execPath, [path.join(ROOT, 'tests/helpers/run-packaged-app.ts'), extracted, appData], {
      env: { ...process.env, GATEHOUSE_PORT: '0', GATEHOUSE_TLS_PORT: 'off', GATEHOUSE_SETTINGS_FILE: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const line = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          const json = stdout.split('\n').find((item) => item.startsWith('{'));
          if (json) resolve(json);
        });
        child.once('exit', (code) => reject(new Error(`the packaged app exited (${code}):\n${stderr}`)));
      });
      const started = JSON.parse(line);
      assert.ok(started.preload.startsWith(extracted) && existsSync(started.preload), 'the preload comes from the package');
      assert.ok(existsSync(started.windowIcon), 'the window icon is packaged');
      const page = await fetch(started.consoleUrl);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="root">/);
      const status = await fetch(`${started.connection.gatewayUrl}/admin/api/status`, {
        headers: { authorization: `Bearer ${started.connection.adminToken}` },
      });
      assert.equal(status.status, 200, 'SQLite (better-sqlite3 from the package) answers');
      const answer = (await status.json()) as any;
      assert.ok(answer.accounts.includes('local'));
      if (process.env['DBUS_SESSION_BUS_ADDRESS'] && existsSync(path.join(ROOT, 'node_modules/keytar'))) {
        assert.equal(answer.secrets.kind, 'keychain', 'keytar from the package reaches the Secret Service');
      }
    } finally {
      child.kill('SIGKILL');
    }
  });
});

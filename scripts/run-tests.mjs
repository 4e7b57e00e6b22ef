#!/usr/bin/env node
// Runs every test file with Node's test runner, inside a private D-Bus session with an unlocked gnome-keyring when the machine has one, so keychain tests use a real Secret Service.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const stripFlag = process.features.typescript ? [] : ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
const patterns = process.argv.slice(2);
const files = patterns.length > 0 ? patterns : ['tests/**/*.test.ts'];
const nodeArgs = [...stripFlag, '--test', '--test-timeout=120000', ...files];

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const wantKeyring = !process.env.DBUS_SESSION_BUS_ADDRESS && has('dbus-run-session') && has('gnome-keyring-daemon');

// A private config folder: `gatehouse serve` started by a test reads no settings file of the user's.
const configHome = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-config-'));
process.env.XDG_CONFIG_HOME = configHome;

let result;
if (wantKeyring) {
  const quoted = [process.execPath, ...nodeArgs].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const script = `echo -n gatehouse-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec ${quoted}`;
  console.log('# tests run in a private D-Bus session with a fresh, unlocked gnome-keyring (real Secret Service)');
  // A fresh keyring folder per run: an existing login keyring with another password would stay locked.
  const keyringHome = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-keyring-'));
  result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
    stdio: 'inherit',
    env: { ...process.env, XDG_DATA_HOME: keyringHome },
  });
  rmSync(keyringHome, { recursive: true, force: true });
} else {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS)
    console.log('# no dbus-run-session/gnome-keyring-daemon here: keychain tests will say why they skip');
  result = spawnSync(process.execPath, nodeArgs, { stdio: 'inherit' });
}
rmSync(configHome, { recursive: true, force: true });
process.exit(result.status ?? 1);

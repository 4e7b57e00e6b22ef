// Test helper: a private D-Bus session bus with no Secret Service (no service files, no keyring), as on a headless Linux machine, WSL or a container.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A session bus config with no service folders: asking for org.freedesktop.secrets fails at once, as with no keyring installed. */
const SESSION_CONFIG = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${os.tmpdir()}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

/** Why a bus without a keyring cannot be made here, or undefined when it can (dbus-daemon is installed). */
export function noKeyringSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'the Secret Service is Linux only';
  return spawnSync('dbus-daemon', ['--version']).status === 0 ? undefined : 'dbus-daemon is not installed';
}

/** A running bus: `env` points a child process at it (DBUS_SESSION_BUS_ADDRESS); `stop` ends the daemon this helper started. */
export interface NoKeyringBus {
  env: NodeJS.ProcessEnv;
  stop(): void;
}

/** Starts a private session bus with no Secret Service and resolves once it prints its address. */
export async function startNoKeyringBus(): Promise<NoKeyringBus> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-nokeyring-'));
  const config = path.join(dir, 'session.conf');
  writeFileSync(config, SESSION_CONFIG);
  const daemon: ChildProcess = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let printed = '';
    daemon.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes('\n')) resolve(printed.split('\n')[0]!.trim());
    });
    daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code} before printing its address`)));
  });
  return {
    env: { DBUS_SESSION_BUS_ADDRESS: address },
    stop() {
      daemon.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

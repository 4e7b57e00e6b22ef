// The peer contender: Portkey's open-source gateway (@portkey-ai/gateway) when it is installed, started headless on a free port.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess } from './processes.ts';

const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');

/**
 * Where the bench looks for the package, first found wins: $PORTKEY_GATEWAY_DIR, `bench/.portkey` (what
 * `npm run bench:portkey` installs, the pinned version), the repo's node_modules, /tmp/portkey.
 */
export function portkeyCandidates(): string[] {
  return [
    process.env['PORTKEY_GATEWAY_DIR'],
    path.join(repoRoot, 'bench/.portkey/node_modules/@portkey-ai/gateway'),
    path.join(repoRoot, 'node_modules/@portkey-ai/gateway'),
    '/tmp/portkey/node_modules/@portkey-ai/gateway',
  ].filter((dir): dir is string => dir !== undefined && dir !== '');
}

/** A running Portkey gateway. */
export interface Portkey {
  url: string;
  pid: number;
  version: string;
  stop(): Promise<void>;
}

/** Starts Portkey, or answers why it cannot (the bench prints the reason and skips the contender). */
export async function startPortkey(): Promise<Portkey | { skipped: string }> {
  const dir = portkeyCandidates().find((candidate) => existsSync(path.join(candidate, 'build/start-server.js')));
  if (!dir) return { skipped: `@portkey-ai/gateway not found in ${portkeyCandidates().join(', ')}` };
  const { version } = (await import(path.join(dir, 'package.json'), { with: { type: 'json' } })).default as { version: string };
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(dir, 'build/start-server.js'), `--port=${port}`, '--headless'], {
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { skipped: `Portkey ${version} exited with ${child.exitCode} at start` };
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return { url, pid: child.pid!, version, stop: () => stopProcess(child) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopProcess(child);
  return { skipped: `Portkey ${version} did not answer within 20 s` };
}

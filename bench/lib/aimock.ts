// The mock contender: CopilotKit's aimock (@copilotkit/aimock) when it is installed, started on a free port with one catch-all fixture answering a given text.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess } from './processes.ts';

const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** Where the bench looks for the package, first found wins: $AIMOCK_DIR, `bench/.aimock` (what `npm run bench:aimock` installs), the repo's node_modules. */
export function aimockCandidates(): string[] {
  return [
    process.env['AIMOCK_DIR'],
    path.join(repoRoot, 'bench/.aimock/node_modules/@copilotkit/aimock'),
    path.join(repoRoot, 'node_modules/@copilotkit/aimock'),
  ].filter((dir): dir is string => dir !== undefined && dir !== '');
}

/** A running aimock. */
export interface Aimock {
  url: string;
  pid: number;
  version: string;
  stop(): Promise<void>;
}

/**
 * Starts aimock with one fixture whose empty `match` answers every chat call with `content` (streamed in its default
 * chunks of 20 characters), logging off; or answers why it cannot (the bench prints the reason and skips the contender).
 */
export async function startAimock(content: string): Promise<Aimock | { skipped: string }> {
  const dir = aimockCandidates().find((candidate) => existsSync(path.join(candidate, 'dist/cli.js')));
  if (!dir) return { skipped: `@copilotkit/aimock not found in ${aimockCandidates().join(', ')} (npm run bench:aimock installs it)` };
  const { version } = (await import(path.join(dir, 'package.json'), { with: { type: 'json' } })).default as { version: string };
  const fixtures = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-aimock-'));
  writeFileSync(path.join(fixtures, 'catch-all.json'), JSON.stringify({ fixtures: [{ match: {}, response: { content } }] }));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(dir, 'dist/cli.js'), '--port', String(port), '--fixtures', fixtures, '--log-level', 'silent'],
    { stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } },
  );
  const stop = async () => {
    await stopProcess(child);
    rmSync(fixtures, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      return { skipped: `aimock ${version} exited with ${child.exitCode} at start` };
    }
    const up = await fetch(`${url}/health`).then(
      () => true,
      () => false,
    );
    if (up) return { url, pid: child.pid!, version, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  return { skipped: `aimock ${version} did not answer within 20 s` };
}

// Test helper: runs the real `gatehouse` CLI as a child process and reads what it prints.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../bin/gatehouse.mjs', import.meta.url));

/** A running `gatehouse serve`. */
export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Every stdout line so far. */
  stdout: string[];
  stderr: () => string;
  /** Sends a signal and resolves with the exit code, or the name of the signal that ended the process. */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/**
 * Starts `gatehouse serve` with the args and resolves once it prints `listening on`; rejects when it exits first, with
 * an error carrying its `exitCode` and `stderr`.
 */
export async function serveCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        stdout.push(line);
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match) resolve(match[1]!);
      }
    });
    // 'close' rather than 'exit': everything it printed has been read by then.
    child.once('close', (code) =>
      reject(Object.assign(new Error(`gatehouse serve exited with ${code} before listening:\n${stderr}`), { exitCode: code, stderr })),
    );
  });
  return {
    child,
    url,
    stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
      child.kill(signal);
      const [code, endedBy] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      return code ?? endedBy;
    },
  };
}

/** `serve` flags for a private test server: `port` (a free one by default), no TLS, `dataDir`, the `secrets` store and no settings file. */
export function privateServeArgs(dataDir: string, options: { secrets?: 'none' | 'file'; port?: number } = {}): string[] {
  const { secrets = 'none', port = 0 } = options;
  return ['--port', String(port), '--tls-port', 'off', '--data-dir', dataDir, '--secrets', secrets, '--settings-file', 'off'];
}

/** The first start's `local` token, from the line a serve process printed it on. */
export function firstTokenOf(server: ServeProcess): string {
  const line = server.stdout.find((item) => /sk-gh-/.test(item));
  if (!line) throw new Error('gatehouse serve printed no first token');
  return /sk-gh-[A-Za-z0-9]+/.exec(line)![0];
}

/**
 * Runs a short CLI command to completion; `input` is written to its standard input. It stops this process's event
 * loop meanwhile: between calls of a server (in this process or not) use runCliAsync, or the HTTP client cannot retire
 * its idle connection before the server's keep-alive timeout and the next request is cut ("other side closed").
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    ...(input !== undefined && { input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

/** The `console: …` URL a serve process prints right after `listening on`, once it has printed it. */
export async function consoleUrlOf(server: ServeProcess): Promise<string> {
  for (;;) {
    const line = server.stdout.find((item) => item.startsWith('console: '));
    if (line) return line.slice('console: '.length);
    if (server.child.exitCode !== null) throw new Error(`gatehouse serve exited before printing its console URL:\n${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The admin token of a serve process, from the console URL it printed. */
export async function adminTokenOf(server: ServeProcess): Promise<string> {
  const token = new URL(await consoleUrlOf(server)).searchParams.get('admin_token');
  if (token === null) throw new Error('the console URL gatehouse serve printed carries no admin token');
  return token;
}

/**
 * Moves a serve process's clock forward by `ms` through the testing API (`POST /admin/api/clock/advance`), with the admin
 * token of its printed console URL; throws when the gateway refuses.
 */
export async function advanceClockOf(server: ServeProcess, consoleUrl: string, ms: number): Promise<void> {
  const answer = await fetch(`${server.url}/admin/api/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${new URL(consoleUrl).searchParams.get('admin_token')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  if (answer.status !== 200) throw new Error(`the clock did not move (${answer.status}): ${await answer.text()}`);
}

/** Runs a short CLI command like runCli without blocking this process, for commands that call a server running in it. */
export async function runCliAsync(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input ?? '');
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr, lines: stdout.trim().split('\n') };
}

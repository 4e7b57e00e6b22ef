// Where the gateway of a data dir listens while it runs: `listening.json` (its process and URL), written once it listens and removed when it stops, so `gatehouse connect` points a tool at the port `serve` really took.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBase62 } from '../ids.ts';
import { PRIVATE_FILE_MODE } from '../private-files.ts';
import { isProcessAlive } from '../process-alive.ts';

/** The file's name in the data dir. */
export const LISTENING_FILE = 'listening.json';

interface Listening {
  pid: number;
  url: string;
}

/**
 * Notes that this process's gateway listens at `url` (replacing what an earlier run left). Written whole (a temporary
 * file renamed over it), not synced to disk: it only matters while this process runs. Never throws: without it,
 * `connect` falls back to the address the options give.
 */
export function noteListening(dataDir: string, url: string): void {
  const file = path.join(dataDir, LISTENING_FILE);
  const temporary = `${file}.${process.pid}.${randomBase62(8)}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify({ pid: process.pid, url } satisfies Listening), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Left behind: a stray temporary file, never a failed start.
    }
  }
}

/** Removes the note of this process's gateway (one another process wrote since stays). Never throws: a stop goes on. */
export function forgetListening(dataDir: string): void {
  const file = path.join(dataDir, LISTENING_FILE);
  try {
    if (readListening(file)?.pid === process.pid) rmSync(file, { force: true });
  } catch {
    // Left behind (a read-only data dir, a file held open on Windows): `connect` then checks its process.
  }
}

/**
 * The base URL the gateway of `dataDir` listens at, when one runs (its process is alive), an any-address host
 * (`0.0.0.0`, `::`) reached on loopback; undefined when none runs or the note is unreadable.
 */
export function listeningUrl(dataDir: string): string | undefined {
  const noted = readListening(path.join(dataDir, LISTENING_FILE));
  if (!noted || !isProcessAlive(noted.pid)) return undefined;
  try {
    const url = new URL(noted.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
    else if (url.hostname === '[::]') url.hostname = '[::1]';
    return url.origin;
  } catch {
    return undefined;
  }
}

function readListening(file: string): Listening | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<Listening> | null;
    return typeof value?.pid === 'number' && Number.isSafeInteger(value.pid) && value.pid > 0 && typeof value.url === 'string'
      ? { pid: value.pid, url: value.url }
      : undefined;
  } catch {
    return undefined;
  }
}

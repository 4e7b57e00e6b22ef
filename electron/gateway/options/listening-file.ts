// Where the gateway of a data dir listens while it runs: `listening.json` (its process and URL), written once it listens and removed when it stops, so `gatehouse connect` points a tool at the port `serve` really took.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
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
  try {
    writeFileAtomic(path.join(dataDir, LISTENING_FILE), JSON.stringify({ pid: process.pid, url } satisfies Listening), { durable: false });
  } catch {
    // Not written (at worst a stray temporary file left): never a failed start.
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
  return noted && isProcessAlive(noted.pid) ? reachableOrigin(noted.url) : undefined;
}

/**
 * The base URL a client reaches a listener at `url` by: its origin, an any-address host (`0.0.0.0`, `::`) reached on
 * loopback; undefined for anything but an http(s) URL.
 */
export function reachableOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
    else if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
    return parsed.origin;
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

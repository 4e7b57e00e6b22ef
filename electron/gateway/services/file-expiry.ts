// Generated image files expire an hour after they are made, as the real API's image URLs do: older ones are deleted in bounded sweeps.
import { opendirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../time.ts';

/** How long a generated image's URL works (as on the real API). */
export const IMAGE_URL_TTL_MS = 60 * 60 * 1000;
/** Directory entries one sweep looks at, at most. */
const SWEEP_ENTRIES = 2000;
/** Least time between two sweeps of one folder. */
const SWEEP_EVERY_MS = 60_000;

/** Deletes the files of one folder that are older than a time to live, a bounded number per sweep. */
export class FileExpiry {
  private readonly dir: string;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly onError: (error: unknown) => void;
  private lastSweep = Number.NEGATIVE_INFINITY;
  constructor(options: { dir: string; clock: Clock; ttlMs: number; onError: (error: unknown) => void }) {
    this.dir = options.dir;
    this.clock = options.clock;
    this.ttlMs = options.ttlMs;
    this.onError = options.onError;
  }

  /** Dates a new file of the folder by the gateway's clock (the one expiry is measured with); returns its name. */
  stamp(name: string): string {
    const seconds = this.clock.now() / 1000;
    utimesSync(path.join(this.dir, name), seconds, seconds);
    return name;
  }

  /** True when `file` (a path in the folder) is older than its time to live. */
  expired(file: string): boolean {
    try {
      return statSync(file).mtimeMs < this.clock.now() - this.ttlMs;
    } catch {
      return true;
    }
  }

  /** At most once a minute, deletes expired files among the first entries of the folder; returns how many. Never throws. */
  sweep(): number {
    const now = this.clock.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return 0;
    this.lastSweep = now;
    let deleted = 0;
    try {
      const dir = opendirSync(this.dir);
      try {
        for (let seen = 0; seen < SWEEP_ENTRIES; seen++) {
          const entry = dir.readSync();
          if (!entry) break;
          const file = path.join(this.dir, entry.name);
          if (entry.isFile() && this.expired(file)) {
            rmSync(file, { force: true });
            deleted++;
          }
        }
      } finally {
        dir.closeSync();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.onError(error);
    }
    return deleted;
  }
}

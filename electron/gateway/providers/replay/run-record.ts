// The record of one replay run in its folder (`.gatehouse-replay-run.jsonl`): when it started and each cassette it used, written as it goes, read by the console and `gatehouse cassette prune`.
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { REPLAY_RUN_FILE } from '../../../../shared/cassette-admin.ts';
import { PRIVATE_FILE_MODE } from '../../private-files.ts';
import { rfc3339, type Clock } from '../../time.ts';

/** A replay run as its file tells it. */
export interface ReplayRunRecord {
  /** Epoch ms. */
  startedAt: number;
  /** The cassettes (file names in the folder) it answered a call from. */
  files: Set<string>;
}

/**
 * The replay run of this gateway: `start` rewrites the folder's run file with the run's start, `note` adds a cassette
 * the first time it answers (a line appended without waiting, in order), `stop` ends the file. A write that fails is
 * reported once and the run goes on: the record is for pruning, never needed to answer.
 */
export class ReplayRun {
  private readonly file: string;
  private readonly clock: Clock;
  private readonly report: (error: unknown) => void;
  private readonly used = new Set<string>();
  private out: WriteStream | null = null;
  private failed = false;
  private started = 0;
  constructor(dir: string, clock: Clock, report: (error: unknown) => void) {
    this.file = path.join(dir, REPLAY_RUN_FILE);
    this.clock = clock;
    this.report = report;
  }

  /** Starts the run's record over (the file of an earlier run is replaced). */
  start(): void {
    this.used.clear();
    this.started = this.clock.now();
    this.out = createWriteStream(this.file, { flags: 'w', mode: PRIVATE_FILE_MODE });
    this.out.on('error', (error) => this.fail(error));
    this.line({ started_at: rfc3339(this.started) });
  }

  /** A call was answered from `file`: recorded the first time. */
  note(file: string): void {
    if (this.used.has(file)) return;
    this.used.add(file);
    this.line({ file });
  }

  /** When the run started (epoch ms on the gateway's clock). */
  get startedAt(): number {
    return this.started;
  }

  /** The cassettes this run has used so far. */
  get files(): ReadonlySet<string> {
    return this.used;
  }

  /** Ends the record (every line written first). */
  async stop(): Promise<void> {
    const out = this.out;
    this.out = null;
    if (!out || out.destroyed) return;
    await new Promise<void>((resolve) => out.end(resolve));
  }

  private line(value: unknown): void {
    if (this.out && !this.out.destroyed) this.out.write(`${JSON.stringify(value)}\n`);
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.report(new Error(`could not write the replay run's record ${this.file}: ${(error as Error).message}`));
  }
}

/**
 * The last replay run recorded in `dir`, or undefined when none has run there. Lines that are not whole (a run that was
 * killed mid-write) are skipped.
 */
export function readReplayRun(dir: string): ReplayRunRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, REPLAY_RUN_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let startedAt: number | undefined;
  const files = new Set<string>();
  for (const line of text.split('\n')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const { started_at, file } = value as { started_at?: unknown; file?: unknown };
    if (typeof started_at === 'string' && startedAt === undefined) startedAt = Date.parse(started_at);
    if (typeof file === 'string') files.add(file);
  }
  return startedAt === undefined || Number.isNaN(startedAt) ? undefined : { startedAt, files };
}

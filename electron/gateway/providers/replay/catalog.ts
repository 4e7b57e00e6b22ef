// The cassettes of a record/replay folder as listed (the console's Cassettes page, `gatehouse cassette list`): each file read once while it is unchanged, summarised, damaged ones named.
import type { Dirent, Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CassetteError, type Cassette, type CassetteBlob } from '../../../../shared/cassette.ts';
import { CASSETTE_SUFFIX, isBareFileName } from '../../../../shared/cassette-names.ts';
import { parseCassette } from '../../../../shared/cassette-reader.ts';
import type { CassetteFolder, CassetteListing, CassettePaging, CassetteQuery } from '../../../../shared/cassette-admin.ts';
import { JOURNAL_FILTER_TEXT_LIMIT } from '../../../../shared/journal.ts';
import { MAX_CASSETTE_BYTES, MAX_CASSETTES } from './limits.ts';
import { readReplayRun, type ReplayRunRecord } from './run-record.ts';

/** Files read at once while listing. */
const READ_CONCURRENCY = 8;

/** What a listing is without the run's flags: the file as read, kept while its size and time stay the same. */
type FileSummary = Omit<CassetteListing, 'replayed' | 'recorded_in_run'>;

/** The cassette files of `dir` (a bare `*.json` name), in name order, at most `MAX_CASSETTES`, and how many there are. */
export async function cassetteFilesOf(dir: string): Promise<{ names: string[]; files: number }> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { names: [], files: 0 };
    throw error;
  }
  const names = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(CASSETTE_SUFFIX))
    .map((entry) => entry.name)
    .sort();
  return { names: names.slice(0, MAX_CASSETTES), files: names.length };
}

/** The summary of a parsed cassette, or of a file refused with its problem. */
export function summaryOf(file: string, bytes: number, read: { cassette: Cassette } | { problem: string }): FileSummary {
  if ('problem' in read)
    return {
      file,
      recorded_at: null,
      kind: null,
      channel: null,
      mode: null,
      protocol: null,
      method: null,
      path: null,
      model: null,
      status: null,
      stream: false,
      bytes,
      problem: read.problem,
    };
  const { cassette } = read;
  const recordedAt = Date.parse(cassette.recording.recordedAt);
  return {
    file,
    recorded_at: Number.isNaN(recordedAt) ? null : recordedAt,
    kind: cassette.kind,
    channel: cassette.recording.channel ?? null,
    mode: cassette.recording.mode,
    protocol: cassette.recording.protocol,
    method: cassette.request.method,
    path: cassette.request.path,
    model: cassette.request.model,
    status: cassette.kind === 'http' ? cassette.response.status : null,
    stream: cassette.request.stream,
    bytes,
    problem: null,
  };
}

/** Reads and checks one cassette file (at most MAX_CASSETTE_BYTES): the cassette, or the problem that refuses it (naming the field). */
export async function readCassetteFile(dir: string, name: string): Promise<{ cassette: Cassette } | { problem: string }> {
  try {
    const { size } = await stat(path.join(dir, name));
    if (size > MAX_CASSETTE_BYTES)
      return { problem: `${name}: is ${size} bytes, over the ${MAX_CASSETTE_BYTES} a cassette may have (big bodies go to blobs)` };
    return { cassette: parseCassette(await readFile(path.join(dir, name), 'utf8'), name) };
  } catch (error) {
    if (error instanceof CassetteError) return { problem: error.message };
    return { problem: `${name}: cannot be read (${(error as Error).message})` };
  }
}

/**
 * A folder's cassettes, summarised: a file is read again only when its size or modification time changed, so listing a
 * folder of thousands again costs a directory read and a `stat` per file.
 */
export class CassetteCatalog {
  readonly dir: string;
  private readonly kept = new Map<string, { size: number; mtimeMs: number; summary: FileSummary }>();
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Every cassette of the folder (up to the bound), newest recording first, with the run's flags. */
  async all(run: ReplayRunRecord | undefined): Promise<{ listings: CassetteListing[]; files: number }> {
    const { names, files } = await cassetteFilesOf(this.dir);
    const summaries: (FileSummary | undefined)[] = new Array(names.length);
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const index = next++;
        summaries[index] = await this.summary(names[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, names.length) }, worker));
    const present = new Set(names);
    for (const name of this.kept.keys()) if (!present.has(name)) this.kept.delete(name);
    const listings = summaries
      .filter((summary): summary is FileSummary => summary !== undefined)
      .map((summary) => withRun(summary, run))
      .sort((a, b) => (b.recorded_at ?? 0) - (a.recorded_at ?? 0) || a.file.localeCompare(b.file));
    return { listings, files };
  }

  /** One page of the folder as the admin API answers it. */
  async page(
    query: Record<string, unknown>,
    paging: CassettePaging,
    info: Pick<CassetteFolder, 'mode'>,
    run: ReplayRunRecord | undefined,
  ): Promise<CassetteFolder> {
    const { listings, files } = await this.all(run);
    const filter = parseQuery(query);
    const wanted = listings.filter((listing) => matches(listing, filter));
    return {
      dir: this.dir,
      mode: info.mode,
      run: run ? { started_at: run.startedAt, replayed: run.files.size } : null,
      files,
      truncated: files > MAX_CASSETTES,
      page: paging.page,
      page_size: paging.pageSize,
      total: wanted.length,
      items: wanted.slice(paging.offset, paging.offset + paging.pageSize),
    };
  }

  private async summary(name: string): Promise<FileSummary | undefined> {
    let info: Stats;
    try {
      info = await stat(path.join(this.dir, name));
    } catch {
      return undefined; // Removed since the folder was read.
    }
    const kept = this.kept.get(name);
    if (kept && kept.size === info.size && kept.mtimeMs === info.mtimeMs) return kept.summary;
    const summary = summaryOf(name, info.size, await readCassetteFile(this.dir, name));
    this.kept.set(name, { size: info.size, mtimeMs: info.mtimeMs, summary });
    return summary;
  }
}

/** The run's flags of a summary: used by the run, or recorded since it started. */
export function withRun(summary: FileSummary, run: ReplayRunRecord | undefined): CassetteListing {
  return {
    ...summary,
    replayed: run?.files.has(summary.file) ?? false,
    recorded_in_run: run !== undefined && summary.recorded_at !== null && summary.recorded_at >= run.startedAt,
  };
}

/** Every payload file a cassette names beside it (a body, a realtime frame, a 3D model's file). */
export function cassetteBlobs(cassette: Cassette): CassetteBlob[] {
  // Found by their shape wherever a kind keeps them (a body's `blob`, a realtime frame's, a 3D file's), so a kind that
  // adds a field holding one is covered too.
  const found = new Map<string, CassetteBlob>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      if (isBlob(value)) found.set(value.file, { file: value.file, bytes: value.bytes, sha256: value.sha256 });
      else for (const item of Object.values(value)) visit(item);
    }
  };
  visit(cassette);
  return [...found.values()];
}

/** Whether `value` names a payload file beside its cassette (`{ file, bytes, sha256 }`). */
function isBlob(value: object): value is CassetteBlob {
  const { file, bytes, sha256 } = value as Partial<CassetteBlob>;
  return (
    typeof file === 'string' &&
    isBareFileName(file) &&
    typeof bytes === 'number' &&
    typeof sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(sha256)
  );
}

/** The replay run flags of a folder: the run in progress when given, else the last one its run file records. */
export function replayRunOf(dir: string, current?: { startedAt: number; files: ReadonlySet<string> }): ReplayRunRecord | undefined {
  return current ? { startedAt: current.startedAt, files: new Set(current.files) } : readReplayRun(dir);
}

function parseQuery(query: Record<string, unknown>): Pick<CassetteQuery, 'q' | 'replayed'> {
  const q =
    typeof query['q'] === 'string' && query['q'].trim() !== ''
      ? query['q'].trim().toLowerCase().slice(0, JOURNAL_FILTER_TEXT_LIMIT)
      : undefined;
  const replayed = query['replayed'] === 'replayed' || query['replayed'] === 'unused' ? query['replayed'] : undefined;
  return { ...(q && { q }), ...(replayed && { replayed }) };
}

function matches(listing: CassetteListing, filter: Pick<CassetteQuery, 'q' | 'replayed'>): boolean {
  if (filter.replayed === 'replayed' && !listing.replayed) return false;
  if (filter.replayed === 'unused' && (listing.replayed || listing.recorded_in_run)) return false;
  if (filter.q === undefined) return true;
  return [listing.file, listing.model, listing.path, listing.channel].some((text) => text?.toLowerCase().includes(filter.q!));
}

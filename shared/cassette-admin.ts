// The cassettes contract of the admin API and the console: the record/replay folder as listed, with which cassettes the replay run used.
import type { Page } from './portrait.ts';

/** One cassette of the folder as listed: what was recorded, when, from where, and whether this replay run used it. */
export interface CassetteListing {
  /** Its file, relative to the folder (`/`-separated): the id the journal's "replayed from …" names. */
  file: string;
  /** When it was recorded (epoch ms); null when the file does not say (or could not be read). */
  recorded_at: number | null;
  /** The relay channel that answered the recorded call; null for a simulated (or fixture) answer. */
  channel: string | null;
  /** What it holds: `http`, `realtime`, `portrait` or `task3d`; null for a file that could not be read. */
  kind: string | null;
  /** What answered it when recorded: `relay` (a real upstream) or `simulate`. */
  mode: string | null;
  /** The client protocol it was recorded from (`openai`, `anthropic`, `gemini`, ...). */
  protocol: string | null;
  method: string | null;
  path: string | null;
  model: string | null;
  /** The recorded answer's HTTP status. */
  status: number | null;
  /** True for a recorded stream (its events kept with their offsets). */
  stream: boolean;
  /** Size of the cassette file, in bytes (payload files beside it not counted). */
  bytes: number;
  /** True when the current (or last) replay run answered a call from it. */
  replayed: boolean;
  /** True when it was recorded after that run started (a miss relayed and recorded): new, so never unused. */
  recorded_in_run: boolean;
  /** Why the file is refused (damaged, not a cassette), naming the problem; null for a sound cassette. */
  problem: string | null;
}

/** The replay run the `replayed` flags come from: when it started and how many distinct cassettes it used. */
export interface ReplayRunInfo {
  /** Epoch ms. */
  started_at: number;
  replayed: number;
}

/** Filters of the cassette list. */
export interface CassetteQuery {
  p?: number;
  page_size?: number;
  /** Part of the file name, model or path, any case. */
  q?: string;
  /** `replayed`: only cassettes the run used; `unused`: only those it did not. */
  replayed?: 'replayed' | 'unused';
}

/** The folder's page of cassettes, newest recording first, and what the gateway does with the folder. */
export interface CassetteFolder extends Page<CassetteListing> {
  /** The folder (`--replay` or `--record`); null when this gateway neither records nor replays. */
  dir: string | null;
  /** `replay` when it answers from the folder, `record` when it records into it, null when neither. */
  mode: 'replay' | 'record' | null;
  /** The current (or last) replay run; null when none has run on the folder. */
  run: ReplayRunInfo | null;
  /** Files in the folder in all (before the filters); a folder past the listing's bound is read only up to it. */
  files: number;
  /** True when the folder holds more cassette files than the listing reads (as many as a replay folder may hold). */
  truncated: boolean;
}

/**
 * The file in a replay folder that names the cassettes the current (or last) replay run used: JSON lines, the run's start
 * first (`{"started_at":…}`), then one `{"file":…}` per cassette the first time it answers. Not a cassette (no `.json`
 * suffix); `gatehouse cassette prune` reads it.
 */
export const REPLAY_RUN_FILE = '.gatehouse-replay-run.jsonl';

/** The page a listing answers (normalised by the admin API's paging rule). */
export interface CassettePaging {
  page: number;
  pageSize: number;
  offset: number;
}

/** What the admin API and the server ask of the gateway's cassette folder. */
export interface CassetteAdmin {
  /** A page of the folder (`q` and `replayed` of a `CassetteQuery` as received); a gateway with no folder answers `dir: null` and no cassette. */
  list(query: Record<string, unknown>, paging: CassettePaging): Promise<CassetteFolder>;
  /** True under `--replay`: calls may be answered from the folder, and the run records which. */
  readonly replaying: boolean;
  /** A call was answered from cassette `file`: the replay run records it (the first time). */
  replayed(file: string): void;
}

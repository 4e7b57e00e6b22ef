// The gateway's state as the console's status page shows it: the effective settings, the secret store, the background scans.
import type { UnroutedPolicy } from './settings.ts';

/** A background scan as the console shows it. */
export interface ScanSummary {
  startedAt: number;
  finishedAt: number;
  checked: number;
  errors: number;
  /** Assets not terminal yet once the scan ended (those backing off included). */
  pending?: number;
  /** Assets the scan left alone because their refreshes keep failing (backoff). */
  backingOff?: number;
  /** The last refresh error the scan met (`ast_…: message`), or null. */
  lastError?: string | null;
}

/** Where secrets go, as the console explains it. */
export interface SecretStoreInfo {
  kind: 'keychain' | 'file' | 'none';
  description: string;
  /** Why nothing is kept although no one chose that: "no keychain was found (no Secret Service on this machine)"; absent otherwise. */
  cause?: string;
}

/** The gateway's state and effective settings (times are epoch milliseconds). */
export interface ServerStatus {
  version: string;
  /** `relay` while at least one relay channel is enabled (its models are relayed), else `simulate` (every model is simulated). */
  mode: 'simulate' | 'relay';
  /** What a model no enabled channel serves gets on this run: the simulator, or the protocol's "model not found" (`--unrouted`). */
  unrouted: UnroutedPolicy;
  /** Base URL of the HTTP API. */
  url: string;
  /** Base URL of the TLS listener, when one runs. */
  tlsUrl: string | null;
  host: string;
  port: number;
  dataDir: string;
  secrets: SecretStoreInfo;
  refreshIntervalMs: number;
  simReviewMs: number;
  /** Origins allowed to call the API from a browser (empty: same origin only). */
  corsOrigins: string[];
  /** False when the request journal is off (`--journal off`): the Logs page then stays empty. */
  journal: boolean;
  startedAt: number;
  /** When the next background scan runs, or null while the scheduler is stopped. */
  nextScanAt: number | null;
  lastScan: ScanSummary | null;
  /** Names of the accounts that exist (each has at least one token). */
  accounts: string[];
  /**
   * `kept`: the console address carries the console secret kept in the secret store (it survives restarts and can be
   * rotated); `per-run`: a token made for this run, and a console secret can be kept; `none`: per run and none can be
   * kept (`--secrets none`, the desktop window).
   */
  consoleSecret: 'kept' | 'per-run' | 'none';
  /** True when the console can restart the server with its saved settings (`gatehouse serve`; the desktop app has its own way). */
  canRestart: boolean;
}

// The gateway's configuration: what a host passes to createGateway, with the embedded defaults.
import type { RecordConfig, ReplayConfig } from '../../shared/cassette.ts';
import type { UnroutedPolicy } from './providers/select.ts';
import type { ChannelDirectory, ProviderSelector, Reviewer } from './providers/types.ts';
import type { ConnectionLimits } from './server/connection-guard.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import type { ToolVariables } from './services/tool-config/tools.ts';
import type { SecretStoreMode } from '../../shared/settings.ts';
import { SETTING_DEFAULTS, type HostSettings } from './services/settings.ts';
import type { StorageLimits } from './services/storage-limits.ts';
import type { Clock } from './time.ts';
import type { MediaPoolOptions } from './workers/media-pool.ts';

/** Embedded defaults; the CLI's flags and environment variables override them. */
export const DEFAULTS = {
  ...SETTING_DEFAULTS,
  /** How long the simulated reviewer takes to reach its verdict. */
  simReviewMs: 10_000,
  /** How long a simulated 3D generation task takes. */
  sim3dMs: 15_000,
} as const;

/** Name of the account created on the first start of an empty data dir. */
export const LOCAL_ACCOUNT = 'local';

export interface GatewayConfig {
  host?: string;
  port?: number;
  /** Port of the TLS listener (0: a free one); absent or null: no TLS listener. */
  tlsPort?: number | null;
  /** Folder for the SQLite file and other runtime files; created when missing. */
  dataDir: string;
  refreshIntervalMs?: number;
  simReviewMs?: number;
  sim3dMs?: number;
  /** Browser origins allowed to call the API (`*`: any); the console's own origin needs none. */
  corsOrigins?: string[];
  /**
   * Extra names or addresses the Host header may carry (`--allowed-hosts`), besides `localhost`, `*.localhost`,
   * `127.0.0.0/8`, `::1` and `host`; every other Host is refused with 403 (DNS rebinding).
   */
  allowedHosts?: string[];
  /** Records API calls for the console's Logs page (default true). */
  journal?: boolean;
  /** The host's settings file, which the console's Settings page edits; absent: settings are read-only. */
  settings?: HostSettings;
  /** Extra model names for /v1/models, e.g. `{ 'gpt-4o': 'sim-chat' }`. */
  modelAliases?: Record<string, string>;
  /**
   * After a burst of calls, give the heap it grew back to the system (server/idle-memory.ts: one memory-reducing collection
   * once the calls stop). For a process the gateway owns (`gatehouse serve`, the desktop app); default false, so a gateway
   * started inside another program (a test suite through gatehouse/testing) never collects that program's heap.
   */
  reclaimIdleMemory?: boolean;
  /** The home folder whose tools' config files Connect writes (default: the OS home; `GATEHOUSE_HOME_DIR` under the CLI). */
  homeDir?: string;
  /** The coding tools' own folder variables Connect honours (`CODEX_HOME`, ...; see options/home-dir.ts); default none. */
  toolVariables?: ToolVariables;
  /** Where token plaintexts are kept; the host chooses it (keychain, file, none). */
  secrets: SecretStore;
  /** The `--secrets` choice (flag, variable or saved setting) `secrets` was opened for, shown by the Settings page; absent: the store's kind. */
  secretMode?: SecretStoreMode;
  clock?: Clock;
  /** Replaces the simulated reviewer. */
  reviewer?: Reviewer;
  /** A model no channel serves (`--unrouted`): simulated (default) or answered with the protocol's "model not found" 404. */
  unrouted?: UnroutedPolicy;
  /** Fixture files and folders (`--fixtures`), loaded and checked at start: a problem in any is a FixturesError naming every one. */
  fixtures?: readonly string[];
  /** `--strict`: a call no fixture matches is refused with the protocol's 404 naming the closest fixture. */
  strict?: boolean;
  /** `--record DIR`: every relayed exchange (and with `simulated` every simulated one) saved as a cassette; see docs/record-replay.md. */
  record?: RecordConfig;
  /** `--replay DIR`: calls answered from cassettes, asked after fixtures and before relay; a miss does what `miss` says. */
  replay?: ReplayConfig;
  /** Test only: how replay waits between recorded events (default real timers); a test passes one that moves a manual clock. */
  replayWait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Test only: replaces the channel store relay routing reads (SQLite and the secret store) with another directory. */
  channels?: ChannelDirectory;
  /** Test only: replaces the provider selector (a fake ProviderBundle for every call); see ContextOptions.providers. */
  providers?: ProviderSelector;
  /**
   * The admin token of this run (`GATEHOUSE_ADMIN_TOKEN`; a desktop host keeps one per launch): it wins over a kept
   * console secret. Absent: the kept console secret, or random per start.
   */
  adminToken?: string;
  /**
   * The per-run admin token of the run before a restart (`gatehouse serve`), so an open console keeps working: kept as
   * the console secret when this run's store keeps secrets (the address is stable from then on), else used for this run.
   */
  carriedAdminToken?: string;
  /**
   * An API token (`sk-…`, `GATEHOUSE_TOKEN`) accepted for the `local` account: stored hashed like any token at start
   * (the account is created when missing; no first token is made then), the same value working across restarts.
   */
  token?: string;
  /**
   * True for a host whose console is opened by its printed address (`gatehouse serve`): the address carries the kept
   * console secret when one was kept, and the console can keep one. Absent: the admin token is made per run (or given).
   */
  bookmarkableConsole?: boolean;
  /**
   * Asks the host to stop this gateway and start a new one with the saved settings (`gatehouse serve` passes it; the
   * console's "Restart server now" calls it). Absent: the admin API's restart answers 400.
   */
  restart?: () => void;
  /** Worker threads for image and audio work and how many jobs may wait (defaults: cores − 1, 16). */
  media?: MediaPoolOptions;
  /** Overrides of the storage bounds (stored responses, usage roll-up); absent ones keep `STORAGE_LIMITS`. */
  storageLimits?: Partial<StorageLimits>;
  /** Overrides of CONNECTION_LIMITS (timeouts, unauthenticated connections per peer, shutdown grace); tests use short ones. */
  connectionLimits?: Partial<ConnectionLimits>;
}

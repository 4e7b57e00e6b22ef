// What createContext takes, and the run's facts and settings read from it when the host gives none.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { CassetteAdmin } from '../../shared/cassette-admin.ts';
import type { RuntimeInfo } from './context-types.ts';
import type { FixtureStore } from './providers/fixtures/store.ts';
import type { CassetteOptions } from './providers/replay/deck.ts';
import type { UnroutedPolicy } from './providers/select.ts';
import type { ChannelDirectory, ProviderSelector, Reviewer } from './providers/types.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import type { HostPolicy } from './server/host-names.ts';
import type { SettingsContext } from './services/settings.ts';
import type { StorageLimits } from './services/storage-limits.ts';
import type { ToolVariables } from './services/tool-config/tools.ts';
import type { Db } from './storage/database.ts';
import type { Clock } from './time.ts';
import type { MediaPoolOptions } from './workers/media-pool.ts';

/** What a host (or a test) gives createContext. */
export interface ContextOptions {
  db: Db;
  /** The data dir, for files the gateway serves (generated images, 3D files, certificates). */
  dataDir: string;
  clock: Clock;
  secrets: SecretStore;
  refreshIntervalMs: number;
  simReviewMs: number;
  /** How long a simulated 3D task takes. */
  sim3dMs: number;
  /** Replaces the simulate bundle's reviewer (relay mode, or tests). */
  reviewer?: Reviewer;
  /**
   * Test only: replaces the provider selector, so a test can answer calls with a fake ProviderBundle and see that
   * routes and services reach providers only through it. `reviewer` and `sim3dMs` then do nothing.
   */
  providers?: ProviderSelector;
  /** Test only: replaces the channel store relay routing reads (SQLite and the secret store) with another directory. */
  channels?: ChannelDirectory;
  /** A model no channel serves: simulated (default) or the protocol's "model not found". */
  unrouted?: UnroutedPolicy;
  /** The fixtures loaded from files (`--fixtures`); absent: none until the admin API adds some. */
  fixtures?: FixtureStore;
  /** `--strict`: a call no fixture matches is refused with the protocol's 404. */
  strict?: boolean;
  /** The cassette folders of `--record` and `--replay` (opened here; a folder over its bounds fails the start); absent: neither. */
  cassetteOptions?: Pick<CassetteOptions, 'record' | 'replay' | 'replayWait'>;
  /** The folder of `--replay` or `--record` as listed; absent: none. */
  cassetteFolder?: CassetteAdmin;
  /** The simulator's store (simulate.sqlite), where the simulated reviewer keeps its state; needed unless `reviewer` is given. */
  simulateDb?: Db;
  /** The console's admin token; a random one is made when absent. */
  adminToken?: string;
  /** Whether `adminToken` is the kept console secret (default: `none`, per run and not keepable). */
  consoleSecret?: 'kept' | 'per-run' | 'none';
  /** The host's restart (see GatewayConfig.restart). */
  restart?: () => void;
  modelAliases?: Record<string, string>;
  /** See RuntimeInfo.homeDir. */
  homeDir?: string;
  /** See RuntimeInfo.toolVariables. */
  toolVariables?: ToolVariables;
  corsOrigins?: string[];
  /** The listen host (default 127.0.0.1) and extra allowed Host names, normalized. */
  hosts?: HostPolicy;
  journal?: boolean;
  /** The values this run started with and the host's settings file; absent: read-only, taken from the options above. */
  settings?: SettingsContext;
  media?: MediaPoolOptions;
  storageLimits?: Partial<StorageLimits>;
}

/** The facts about this run, from the options (a random admin token when none is given); `startedAt` on `clock`. */
export function runtimeInfo(options: ContextOptions, clock: Clock): RuntimeInfo {
  return {
    adminToken: options.adminToken ?? randomBytes(32).toString('base64url'),
    consoleSecret: options.consoleSecret ?? 'none',
    restart: options.restart ?? null,
    startedAt: clock.now(),
    refreshIntervalMs: options.refreshIntervalMs,
    corsOrigins: [...(options.corsOrigins ?? [])],
    hosts: options.hosts ?? { listenHost: '127.0.0.1', allowedHosts: [] },
    journal: options.journal ?? true,
    simReviewMs: options.simReviewMs,
    url: null,
    tlsUrl: null,
    modelAliases: options.modelAliases ?? {},
    unrouted: options.unrouted ?? 'auto',
    homeDir: options.homeDir ?? os.homedir(),
    toolVariables: options.toolVariables ?? {},
  };
}

/** The host's settings, or (none given) read-only ones taken from the options: what the Settings page shows. */
export function settingsOf(options: ContextOptions): SettingsContext {
  return (
    options.settings ?? {
      started: {
        host: '127.0.0.1',
        port: 0,
        tlsPort: null,
        corsOrigins: options.corsOrigins ?? [],
        refreshIntervalMs: options.refreshIntervalMs,
        dataDir: options.dataDir,
        unrouted: options.unrouted ?? 'auto',
        modelAliases: { ...options.modelAliases },
      },
    }
  );
}

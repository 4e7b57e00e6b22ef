// `gatehouse/testing`: startGatehouse() runs a gateway in this process on a free port with a temporary data dir, for Node test runners.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway, selectSecretStore, type Gateway } from '../gateway/index.ts';
import type { ClockState } from '../../shared/testing-api.ts';
import type { RecordConfig, ReplayConfig, ReplayMiss } from '../../shared/cassette.ts';
import type { UnroutedPolicy } from '../../shared/settings.ts';
import { adminClient, type AdminCall } from './admin-client.ts';
import type { Fixture } from './fixture-types.ts';
import { checkStartOptions } from './options-check.ts';
import { cassettesApi, type CassettesApi } from './cassettes.ts';
import {
  fixturesApi,
  journalApi,
  resetVia,
  testScope,
  type FixturesApi,
  type JournalApi,
  type ResetReport,
  type TestScope,
} from './scope.ts';

export { GatehouseAdminError } from './admin-client.ts';
export { TEST_ID_HEADER } from '../../shared/test-ids.ts';
export type { Fixture, FixtureInput, FixtureMatch, FixtureResponse, FixtureToolCall, TextPattern } from './fixture-types.ts';
export type { FixturesApi, JournalApi, JournalCall, JournalFilter, ResetReport, TestScope } from './scope.ts';
export type { FixtureListing } from '../../shared/fixtures.ts';
export type { CassettesApi, CassetteFilter } from './cassettes.ts';
export type { CassetteFolder, CassetteListing } from '../../shared/cassette-admin.ts';
export type { ReplayMiss } from '../../shared/cassette.ts';
export type { ClockState } from '../../shared/testing-api.ts';
export type { UnroutedPolicy } from '../../shared/settings.ts';
export type { JournalEntry, JournalSummary } from '../../shared/journal.ts';

/** How `startGatehouse` sets the gateway up. */
export interface StartGatehouseOptions {
  /**
   * The suite's fixtures: fixture files or folders (paths, relative to the working directory) and fixture objects,
   * loaded at start (a problem in any rejects with every problem named). `reset()` keeps them; `fixtures.add` is per test.
   */
  fixtures?: readonly (string | Fixture)[];
  /** Refuse every call no fixture matches with the protocol's 404 naming the closest fixture (`--strict`). */
  strict?: boolean;
  /**
   * Record every relayed call as a cassette in this folder (`--record DIR`; relative to the working directory, made when
   * missing): run the suite once against real upstreams, commit the folder, replay it in CI. Channels added through the admin
   * API keep their keys then (in the temporary data dir).
   */
  record?: string;
  /** Record what the simulator answers too (`--record-simulated`). */
  recordSimulated?: boolean;
  /** Re-record: a request's first recording replaces the cassettes the folder held for it (`--record-replace`). */
  recordReplace?: boolean;
  /** JSON paths or header names whose values never reach a cassette (`--record-redact`). */
  recordRedact?: readonly string[];
  /** Answer calls from this folder's cassettes (`--replay DIR`), after fixtures and before relay. */
  replay?: string;
  /** What a call no cassette matches gets (`--replay-miss`): `simulate` (default), `relay` (and record it), or `error`. */
  replayMiss?: ReplayMiss;
  /** JSON paths ignored when matching, besides the volatile fields (`--replay-ignore`). */
  replayIgnore?: readonly string[];
  /** Streams at the recorded timing (1, the default), N times faster, or 0: as fast as possible (`--replay-speed`). */
  replaySpeed?: number;
  /** The API token of the `local` account, `sk-…` (default: a new one, in `token`). */
  token?: string;
  /** The admin token (default: a random one, in `adminToken`). */
  adminToken?: string;
  /** Record calls in the journal (default true; `journal` reads them). */
  journal?: boolean;
  /**
   * How long the simulator's review of a new portrait asset takes on the gateway's clock, in ms (`--sim-review-ms`;
   * default 10,000; 0: its verdict at the first read). `clock.advance` skips the wait either way.
   */
  simReviewMs?: number;
  /** How long a simulated 3D task takes on the gateway's clock, in ms (`--sim-3d-ms`; default 15,000). */
  sim3dMs?: number;
  /** Extra model names, each answered as the model it stands for and listed by `/v1/models` (`--model-aliases`), e.g. `{ 'gpt-4o': 'sim-chat' }`. */
  modelAliases?: Readonly<Record<string, string>>;
  /**
   * What a model no relay channel serves gets (`--unrouted`): `'auto'` (the default: the simulator answers, as no channel
   * is enabled until the suite adds one), `'simulate'` or `'reject'` (the protocol's "model not found").
   */
  unrouted?: UnroutedPolicy;
  /** Told of the gateway's background failures (default: printed on stderr). */
  onError?: (error: unknown) => void;
}

/** A running gateway for a test suite. */
export interface Gatehouse {
  /** `http://127.0.0.1:PORT`: the base URL for the Anthropic and Gemini SDKs and the portrait and 3D APIs. */
  readonly url: string;
  /** `url` + `/v1`: the `baseURL` of the OpenAI SDK. */
  readonly baseURL: string;
  /** An API token of the `local` account. */
  readonly token: string;
  /** The admin API's token. */
  readonly adminToken: string;
  /** The temporary data dir (removed by `stop`). */
  readonly dataDir: string;
  readonly fixtures: FixturesApi;
  readonly journal: JournalApi;
  /** The record/replay folder: what it holds and which cassettes this replay run has used. */
  readonly cassettes: CassettesApi;
  readonly clock: {
    /** Moves the gateway's clock forward: reviews, 3D tasks, background responses and batches see the new time at once. */
    advance(ms: number): Promise<ClockState>;
    get(): Promise<ClockState>;
  };
  /**
   * Clears the journal, runtime fixtures, sequence and fault counters (all, or `testId`'s); `data: true` (without a test id)
   * also empties the stored data: groups, assets, 3D tasks, stored responses, files and batches.
   */
  reset(options?: { testId?: string; data?: boolean }): Promise<ResetReport>;
  /** Fixtures, journal and reset scoped to one test id, and the header that carries it. */
  forTest(testId: string): TestScope;
  /** Stops the gateway (in-flight calls finish) and removes the data dir. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a gateway in this process on a free port of 127.0.0.1 with a fresh temporary data dir and no secret store (but a recording run's, in that dir). */
export async function startGatehouse(options: StartGatehouseOptions = {}): Promise<Gatehouse> {
  checkStartOptions(options);
  const root = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-testing-'));
  const dataDir = path.join(root, 'data');
  let gateway: Gateway | undefined;
  try {
    const { store } = await selectSecretStore(keepsChannelKeys(options) ? 'file' : 'none', dataDir);
    gateway = await createGateway({
      dataDir,
      port: 0,
      secrets: store,
      fixtures: fixturePaths(root, options.fixtures ?? []),
      ...(options.strict && { strict: true }),
      ...cassetteConfig(options),
      ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
      ...(options.token !== undefined && { token: options.token }),
      ...(options.journal !== undefined && { journal: options.journal }),
      ...(options.simReviewMs !== undefined && { simReviewMs: options.simReviewMs }),
      ...(options.sim3dMs !== undefined && { sim3dMs: options.sim3dMs }),
      ...(options.modelAliases !== undefined && { modelAliases: { ...options.modelAliases } }),
      ...(options.unrouted !== undefined && { unrouted: options.unrouted }),
    });
    const report = options.onError ?? ((error: unknown) => console.error('gatehouse:', error));
    gateway.events.on('error', report);
    const { url, firstToken } = await gateway.start();
    return handle(gateway, { root, dataDir, url, token: options.token ?? firstToken ?? '' });
  } catch (error) {
    await gateway?.stop();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** The paths `createGateway` loads: the given ones, and the fixture objects written to one file in the temp folder. */
function fixturePaths(root: string, fixtures: readonly (string | Fixture)[]): string[] {
  const paths = fixtures.filter((item): item is string => typeof item === 'string');
  const inline = fixtures.filter((item): item is Fixture => typeof item !== 'string');
  if (inline.length === 0) return paths;
  const file = path.join(root, 'fixtures.json');
  writeFileSync(file, JSON.stringify({ fixtures: inline }));
  return [...paths, file];
}

/**
 * Whether the gateway keeps channel keys: a recording run (`record`, or `replayMiss: 'relay'`) relays to real upstreams, so a
 * channel added through the admin API needs its key; it is kept in the temporary data dir, which `stop()` removes.
 */
function keepsChannelKeys(options: StartGatehouseOptions): boolean {
  return options.record !== undefined || options.replayMiss === 'relay';
}

/** The gateway's `record` and `replay` configuration from the options (folders resolved against the working directory). */
function cassetteConfig(options: StartGatehouseOptions): { record?: RecordConfig; replay?: ReplayConfig } {
  return {
    ...(options.record !== undefined && {
      record: {
        dir: path.resolve(options.record),
        ...(options.recordSimulated && { simulated: true }),
        ...(options.recordReplace && { replace: true }),
        ...(options.recordRedact && { redact: options.recordRedact }),
      },
    }),
    ...(options.replay !== undefined && {
      replay: {
        dir: path.resolve(options.replay),
        ...(options.replayMiss && { miss: options.replayMiss }),
        ...(options.replayIgnore && { ignore: options.replayIgnore }),
        ...(options.replaySpeed !== undefined && { speed: options.replaySpeed }),
      },
    }),
  };
}

function handle(gateway: Gateway, run: { root: string; dataDir: string; url: string; token: string }): Gatehouse {
  const adminToken = gateway.adminToken;
  const admin: AdminCall = adminClient(run.url, adminToken);
  const fixtures = fixturesApi(admin);
  const journal = journalApi(admin);
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= gateway.stop().finally(() => rmSync(run.root, { recursive: true, force: true })));
  return {
    url: run.url,
    baseURL: `${run.url}/v1`,
    token: run.token,
    adminToken,
    dataDir: run.dataDir,
    fixtures,
    journal,
    cassettes: cassettesApi(admin),
    clock: {
      advance: (ms) => admin<ClockState>('POST', '/clock/advance', { body: { ms } }),
      get: () => admin<ClockState>('GET', '/clock'),
    },
    reset: (options = {}) => resetVia(admin, options),
    forTest: (testId) => testScope(testId, admin, fixtures, journal),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

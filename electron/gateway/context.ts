// Wires storage, providers, services and the scheduler into the one context object that routes and hosts use.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { JournalSummary } from '../../shared/journal.ts';
import type { ToolVariables } from './services/tool-config/tools.ts';
import type { AdminAsset, Group } from '../../shared/portrait.ts';
import { FixtureStore } from './providers/fixtures/store.ts';
import { openCassettes, type CassetteOptions } from './providers/replay/deck.ts';
import { CassetteFolderAdmin } from './providers/replay/folder-admin.ts';
import type { CassetteAdmin } from '../../shared/cassette-admin.ts';
import { ProviderChoice, type UnroutedPolicy } from './providers/select.ts';
import { ServiceChoice } from './providers/service-choice.ts';
import { workTapes } from './providers/replay/work-choice.ts';
import { createSimulateProviders } from './providers/simulate/index.ts';
import type { CassetteDeck, ChannelDirectory, ProviderSelector, Reviewer } from './providers/types.ts';
import type { SettingsContext } from './services/settings.ts';
import { SimulatedReviewer } from './providers/simulate/reviewer.ts';
import { SimReviewsRepo } from './providers/simulate/reviews-repo.ts';
import { RefreshScheduler, type ScanReport } from './scheduler/refresh-scheduler.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import { FaultCounters } from './server/faults.ts';
import type { HostPolicy } from './server/host-names.ts';
import { AssetRefresher } from './services/asset-refresh.ts';
import { AssetsService } from './services/assets.ts';
import { AudioService } from './services/audio.ts';
import { BillingService } from './services/billing.ts';
import { QuotaLedger } from './services/quota-ledger.ts';
import { ChannelsService } from './services/channels.ts';
import { PriceTable } from './services/price-table.ts';
import { STORAGE_LIMITS, type StorageLimits } from './services/storage-limits.ts';
import { GroupsService } from './services/groups.ts';
import { ImagesService } from './services/images.ts';
import { JournalRecorder } from './services/journal.ts';
import { presentAdminAsset, presentGroup } from './services/portrait-present.ts';
import { RetrievalService } from './services/retrieval.ts';
import { Tasks3dService } from './services/tasks3d.ts';
import { limitToTokenModels } from './services/token-models.ts';
import { TokensService } from './services/tokens.ts';
import { makeListenersSafe } from './safe-events.ts';
import { AccountsRepo } from './storage/accounts-repo.ts';
import { AssetsRepo, type AssetRow } from './storage/assets-repo.ts';
import { ChannelsRepo } from './storage/channels-repo.ts';
import { PricesRepo } from './storage/prices-repo.ts';
import { RelayedResponsesRepo } from './storage/relayed-responses-repo.ts';
import { RemoteGroupsRepo } from './storage/remote-groups-repo.ts';
import type { Db } from './storage/database.ts';
import { GroupsRepo } from './storage/groups-repo.ts';
import { JournalThread } from './storage/journal-thread.ts';
import { MetaRepo } from './storage/meta-repo.ts';
import { Tasks3dRepo } from './storage/tasks3d-repo.ts';
import { TokensRepo } from './storage/tokens-repo.ts';
import { UsageRepo } from './storage/usage-repo.ts';
import { UsageStatsRepo } from './storage/usage-stats-repo.ts';
import { UsageStatsService } from './services/usage-stats.ts';
import { OffsetClock, type Clock } from './time.ts';
import { MediaPool, type MediaPoolOptions } from './workers/media-pool.ts';
import { StoredResponses } from './services/stored-responses.ts';
import { RelayedResponses } from './services/relayed-responses.ts';
import { Conversations } from './services/conversations.ts';
import { ConversationsRepo } from './storage/conversations-repo.ts';
import { ResponsesRepo } from './storage/responses-repo.ts';
import { ApiFiles } from './services/api-files.ts';
import { BatchLines } from './services/batch-lines.ts';
import { BatchesService } from './services/batches.ts';
import { ChatCompletionsService } from './services/chat-completions.ts';
import { ModerationService } from './services/moderations.ts';
import { ResponsesService } from './services/responses.ts';
import { StoredChatCompletions } from './services/stored-chat-completions.ts';
import { BatchRunner } from './scheduler/batch-runner.ts';
import { BatchesRepo } from './storage/batches-repo.ts';
import { ChatCompletionsRepo } from './storage/chat-completions-repo.ts';
import { FilesRepo } from './storage/files-repo.ts';
import { GroupCommit } from './storage/group-commit.ts';

/** Events the gateway emits for hosts and the UI. */
export interface GatewayEvents {
  /** An asset's stored state changed: a refresh (by a query, "refresh now" or the scan) or a rename. */
  'asset.changed': [asset: AdminAsset & { account_id: number }];
  /** An asset was registered, by the portrait API or the admin API. */
  'asset.created': [asset: AdminAsset & { account_id: number }];
  /** A group was created or updated, by the portrait API or the admin API. */
  'group.changed': [group: Group & { account_id: number }];
  /** An asset was deleted (admin API), or replaced by registering a failed one again. */
  'asset.deleted': [asset: { asset_id: string; account_id: number }];
  /** A group was deleted with its assets (admin API). */
  'group.deleted': [group: { group_id: string; account_id: number }];
  'scan.finished': [report: ScanReport];
  'journal.added': [entry: JournalSummary];
  error: [error: unknown];
}

/** Facts about this run of the gateway, for the admin API and the hosts. */
export interface RuntimeInfo {
  /** The admin token of the console: the kept console secret (replaced when rotated), or random for this run, in memory only. */
  adminToken: string;
  /** The admin token is the kept console secret, or made for this run (`per-run`: one can be kept; `none`: not here). */
  consoleSecret: 'kept' | 'per-run' | 'none';
  /** Asks the host to restart the gateway with its saved settings; null when the host cannot. */
  readonly restart: (() => void) | null;
  readonly startedAt: number;
  /** Changed at run time by the Settings page (the scheduler is told too). */
  refreshIntervalMs: number;
  /** Browser origins allowed to call the API; changed at run time by the Settings page. */
  corsOrigins: string[];
  /** The host the gateway listens on, and the extra names its Host header may carry (see server/host-names.ts). */
  readonly hosts: HostPolicy;
  /** Whether API calls are recorded in the request journal. */
  readonly journal: boolean;
  readonly simReviewMs: number;
  /** Base URL of the HTTP listener once started. */
  url: string | null;
  /** Base URL of the TLS listener, when one runs. */
  tlsUrl: string | null;
  /** Extra model names listed by /v1/models, each standing for a simulated model. */
  readonly modelAliases: Readonly<Record<string, string>>;
  /** What a model no enabled channel serves gets on this run (`--unrouted`, the saved setting). */
  readonly unrouted: UnroutedPolicy;
  /** The user's home folder, whose coding tools' config files Connect writes (`GATEHOUSE_HOME_DIR`, else the OS home). */
  readonly homeDir: string;
  /** The coding tools' own folder variables Connect honours (`CODEX_HOME`, ...). */
  readonly toolVariables: ToolVariables;
}

/** Everything a route needs. */
export interface GatewayContext {
  db: Db;
  dataDir: string;
  /** The gateway's clock, which every service reads; the testing API moves it forward (`POST /admin/api/clock/advance`). */
  clock: OffsetClock;
  secrets: SecretStore;
  events: EventEmitter<GatewayEvents>;
  tokens: TokensService;
  groups: GroupsService;
  assets: AssetsService;
  accounts: AccountsRepo;
  billing: BillingService;
  /** The owner's price table (documented defaults, the owner's rows in SQLite), read by billing on every charge. */
  prices: PriceTable;
  /** The usage dashboard's per-day totals: every call of a known token counted, read by the admin API. */
  usageStats: UsageStatsService;
  /** Embeddings and rerank through the call's provider, billed by the tokens it counted. */
  retrieval: RetrievalService;
  images: ImagesService;
  audio: AudioService;
  tasks3d: Tasks3dService;
  scheduler: RefreshScheduler;
  runtime: RuntimeInfo;
  settings: SettingsContext;
  /** Records API calls (written in batches); `journalStore` reads them back. */
  journal: JournalRecorder;
  /** The journal's store (journal.sqlite), written and read through its own thread, started on first use. */
  journalStore: JournalThread;
  /** Worker threads for CPU-heavy image and audio work (started on first use, closed by the gateway's stop). */
  media: MediaPool;
  /** Bounds on stored responses and the raw usage ledger. */
  storageLimits: StorageLimits;
  /** Responses kept for `previous_response_id` and retrieval (the Responses API's `store`). */
  storedResponses: StoredResponses;
  /** Responses API calls that do not stream (create, background, compact), shared by the route and batch lines. */
  responses: ResponsesService;
  /** Chat completions kept with `store: true`, per account. */
  storedChatCompletions: StoredChatCompletions;
  /** Chat completions that do not stream, shared by the route and batch lines. */
  chatCompletions: ChatCompletionsService;
  moderations: ModerationService;
  /** The Files API's files per account (uploads and batch results), under the data dir. */
  files: ApiFiles;
  /** The Batch API per account; `batchRunner` moves running batches along in the background. */
  batches: BatchesService;
  batchRunner: BatchRunner;
  /** Which relay channel stored which Responses API id, so retrieve, delete and follow-ups go back to it. */
  relayedResponses: RelayedResponses;
  /** Conversations API conversations kept by the gateway (also the earlier turns of a Responses call naming one). */
  conversations: Conversations;
  /** The provider seam: routes and services reach models and upstreams only through `providers.for(call)`. */
  providers: ProviderSelector;
  /** Scripted answers: the fixtures loaded with `--fixtures` and those added through the admin API, with their counters. */
  fixtures: FixtureStore;
  /** Cassettes of this run: where recordings of every kind are saved (`--record`), where replay reads (`--replay`). */
  cassettes: CassetteDeck;
  /** The record/replay folder as the admin API lists it, and the replay run's record of the cassettes it used. */
  cassetteFolder: CassetteAdmin;
  /** The relay channels (SQLite and the secret store, read per call); also the ChannelDirectory relay routing reads. */
  channels: ChannelsService;
  /** The counted faults' attempts (`x-gatehouse-fault: 429*1`) per test id; the testing API's reset clears them. */
  faults: FaultCounters;
  /** Bookkeeping writes (usage ledger, channel health) committed together once per event-loop turn; flushed at stop. */
  writes: GroupCommit;
}

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

/** The simulated reviewer on the simulator's store. */
function simulatedReviewer(options: ContextOptions): Reviewer {
  if (!options.simulateDb) throw new Error('createContext needs simulateDb (the simulator store) or a reviewer');
  return new SimulatedReviewer({ repo: new SimReviewsRepo(options.simulateDb), clock: options.clock, reviewMs: options.simReviewMs });
}

export function createContext(options: ContextOptions): GatewayContext {
  const { db } = options;
  const clock = options.clock instanceof OffsetClock ? options.clock : new OffsetClock(options.clock);
  // A listener that throws (a closed socket, a host's bug) is reported as `error`, never thrown into a request or a timer.
  const events = makeListenersSafe(new EventEmitter<GatewayEvents>());
  const accounts = new AccountsRepo(db);
  const groupsRepo = new GroupsRepo(db);
  const assetsRepo = new AssetsRepo(db);
  const meta = new MetaRepo(db);
  const media = new MediaPool(options.media);
  const writes = new GroupCommit(db, (error) => void events.emit('error', error));
  const channels = new ChannelsService({ repo: new ChannelsRepo(db), secrets: options.secrets, clock, writes });
  const fixtures = options.fixtures ?? new FixtureStore();
  const cassettes = openCassettes({ ...options.cassetteOptions, clock, report: (error) => void events.emit('error', error) });
  // Portrait reviews and 3D tasks are recorded on the service channels and (with --record-simulated) the simulator alike.
  const tapes = workTapes(cassettes.deck, clock, (error) => void events.emit('error', error));
  // Every call that names a model passes the token's model limit first (tests' providers too).
  const providers = limitToTokenModels(
    options.providers ??
      new ProviderChoice(
        createSimulateProviders({
          clock,
          media,
          reviewer: options.reviewer ?? simulatedReviewer({ ...options, clock }),
          sim3dMs: options.sim3dMs,
          modelAliases: options.modelAliases ?? {},
        }),
        {
          channels: cassettes.watch(options.channels ?? channels),
          ...(options.unrouted && { unrouted: options.unrouted }),
          created: Math.floor(clock.now() / 1000),
          fixtures,
          strict: options.strict ?? false,
          clock,
          ...(cassettes.routing && { replay: cassettes.routing }),
          cassettes: cassettes.deck,
          ...(tapes && { tapes }),
        },
      ),
  );
  // The portrait reviewer and 3D platform channels come from the channel store (platform and volcengine kinds).
  const services = new ServiceChoice({ channels: cassettes.watchServices(channels), now: () => clock.now(), ...(tapes && { tapes }) });
  const assetChanged = (row: AssetRow) => events.emit('asset.changed', { ...presentAdminAsset(row), account_id: row.account_id });
  const refresher = new AssetRefresher(assetsRepo, providers, clock, assetChanged, {
    reviewers: services,
    writes,
  });
  const storageLimits: StorageLimits = { ...STORAGE_LIMITS, ...options.storageLimits };
  const reportError = (error: unknown) => void events.emit('error', error);
  // A model only keyless loopback channels serve (a local Ollama) costs 0 unless the owner priced it.
  const prices = new PriceTable(new PricesRepo(db), clock, (model) => channels.freeModel(model));
  const tokensRepo = new TokensRepo(db);
  const billing = new BillingService(
    new UsageRepo(db),
    clock,
    options.modelAliases,
    {
      limits: storageLimits,
      onError: reportError,
      writes,
    },
    prices,
    new QuotaLedger((tokenId) => tokensRepo.usedMicros(tokenId) ?? 0),
  );
  const scheduler = new RefreshScheduler({
    intervalMs: options.refreshIntervalMs,
    assets: assetsRepo,
    meta,
    refresher,
    clock,
    onScan: (report) => events.emit('scan.finished', report),
    onError: (error) => events.emit('error', error),
  });
  // An advance of the clock is seen at once by what waits on real timers: the scan's next run, the batches' next step.
  clock.onAdvance(() => scheduler.clockMoved());
  const journalStore = new JournalThread(options.dataDir);
  const journal = new JournalRecorder({
    store: journalStore,
    onAdded: (entry) => events.emit('journal.added', entry),
    onError: (error) => events.emit('error', error),
  });
  const storedResponses = new StoredResponses(new ResponsesRepo(db), db, clock, storageLimits);
  const conversations = new Conversations(new ConversationsRepo(db), db, clock, storageLimits);
  const responses = new ResponsesService({ providers, billing, stored: storedResponses, conversations, clock });
  const storedChatCompletions = new StoredChatCompletions({ repo: new ChatCompletionsRepo(db), db, clock, limits: storageLimits });
  const chatCompletions = new ChatCompletionsService({ providers, billing, stored: storedChatCompletions, clock });
  const moderations = new ModerationService(providers);
  const retrieval = new RetrievalService(providers, billing);
  const files = new ApiFiles({ repo: new FilesRepo(db), clock, dataDir: options.dataDir, limits: storageLimits, onError: reportError });
  const relayedResponses = new RelayedResponses(new RelayedResponsesRepo(db), clock, storageLimits);
  const batches = new BatchesService({
    db,
    repo: new BatchesRepo(db),
    accounts,
    tokens: tokensRepo,
    files,
    clock,
    limits: storageLimits,
    lines: new BatchLines({
      providers,
      billing,
      chat: chatCompletions,
      responses,
      retrieval,
      moderations,
      relayed: relayedResponses,
      onError: reportError,
    }),
  });
  const batchRunner = new BatchRunner({ batches, onError: reportError });
  clock.onAdvance(() => batchRunner.kick());
  return {
    db,
    journal,
    journalStore,
    dataDir: options.dataDir,
    clock,
    secrets: options.secrets,
    events,
    accounts,
    tokens: new TokensService(accounts, tokensRepo, clock),
    groups: new GroupsService(
      groupsRepo,
      clock,
      (row) => events.emit('group.changed', { ...presentGroup(row), account_id: row.account_id }),
      (row) => events.emit('group.deleted', { group_id: row.group_id, account_id: row.account_id }),
      (group) => services.groupRefusal(group),
    ),
    assets: new AssetsService({
      assets: assetsRepo,
      groups: groupsRepo,
      providers,
      reviewers: services,
      remoteGroups: new RemoteGroupsRepo(db),
      refresher,
      clock,
      onCreated: (row) => events.emit('asset.created', { ...presentAdminAsset(row), account_id: row.account_id }),
      onRenamed: assetChanged,
      onDeleted: (row) => events.emit('asset.deleted', { asset_id: row.asset_id, account_id: row.account_id }),
    }),
    billing,
    prices,
    usageStats: new UsageStatsService(new UsageStatsRepo(db), clock, writes),
    retrieval,
    audio: new AudioService(providers, billing),
    images: new ImagesService({ providers, billing, clock, dataDir: options.dataDir, onError: reportError }),
    media,
    providers,
    channels,
    writes,
    storedResponses,
    responses,
    storedChatCompletions,
    chatCompletions,
    moderations,
    files,
    batches,
    batchRunner,
    relayedResponses,
    conversations,
    fixtures,
    cassettes: cassettes.deck,
    cassetteFolder: options.cassetteFolder ?? new CassetteFolderAdmin({}, () => {}),
    faults: new FaultCounters(),
    storageLimits,
    tasks3d: new Tasks3dService({
      repo: new Tasks3dRepo(db),
      db,
      billing,
      clock,
      dataDir: options.dataDir,
      providers,
      mesh3dChannels: services,
      limits: storageLimits,
      onError: reportError,
    }),
    scheduler,
    settings: options.settings ?? {
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
    },
    runtime: {
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
    },
  };
}

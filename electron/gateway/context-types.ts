// The gateway context's shape: what routes and hosts read, the events it emits and the facts about this run.
import type { EventEmitter } from 'node:events';
import type { JournalSummary } from '../../shared/journal.ts';
import type { AdminAsset, Group } from '../../shared/portrait.ts';
import type { CassetteAdmin } from '../../shared/cassette-admin.ts';
import type { ToolVariables } from './services/tool-config/tools.ts';
import type { FixtureStore } from './providers/fixtures/store.ts';
import type { UnroutedPolicy } from './providers/select.ts';
import type { CassetteDeck, ProviderSelector } from './providers/types.ts';
import type { SettingsContext } from './services/settings.ts';
import type { RefreshScheduler, ScanReport } from './scheduler/refresh-scheduler.ts';
import type { BatchRunner } from './scheduler/batch-runner.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import type { FaultCounters } from './server/faults.ts';
import type { HostPolicy } from './server/host-names.ts';
import type { AssetsService } from './services/assets.ts';
import type { AudioService } from './services/audio.ts';
import type { BillingService } from './services/billing.ts';
import type { ChannelsService } from './services/channels.ts';
import type { PriceTable } from './services/price-table.ts';
import type { StorageLimits } from './services/storage-limits.ts';
import type { GroupsService } from './services/groups.ts';
import type { ImagesService } from './services/images.ts';
import type { JournalRecorder } from './services/journal.ts';
import type { RetrievalService } from './services/retrieval.ts';
import type { Tasks3dService } from './services/tasks3d.ts';
import type { TokensService } from './services/tokens.ts';
import type { UsageStatsService } from './services/usage-stats.ts';
import type { StoredResponses } from './services/stored-responses.ts';
import type { RelayedResponses } from './services/relayed-responses.ts';
import type { Conversations } from './services/conversations.ts';
import type { ApiFiles } from './services/api-files.ts';
import type { BatchesService } from './services/batches.ts';
import type { ChatCompletionsService } from './services/chat-completions.ts';
import type { ModerationService } from './services/moderations.ts';
import type { ResponsesService } from './services/responses.ts';
import type { StoredChatCompletions } from './services/stored-chat-completions.ts';
import type { AccountsRepo } from './storage/accounts-repo.ts';
import type { Db } from './storage/database.ts';
import type { GroupCommit } from './storage/group-commit.ts';
import type { JournalThread } from './storage/journal-thread.ts';
import type { OffsetClock } from './time.ts';
import type { MediaPool } from './workers/media-pool.ts';

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

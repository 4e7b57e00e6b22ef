// Wires the services routes call (tokens, assets, billing, the OpenAI-style stores, batches, the journal) on storage and the provider seam.
import type { EventEmitter } from 'node:events';
import type { GatewayContext, GatewayEvents } from './context-types.ts';
import type { ServiceChoice } from './providers/service-choice.ts';
import type { ProviderSelector } from './providers/types.ts';
import { ApiFiles } from './services/api-files.ts';
import { AssetRefresher } from './services/asset-refresh.ts';
import { AssetsService } from './services/assets.ts';
import { AudioService } from './services/audio.ts';
import { BatchLines } from './services/batch-lines.ts';
import { BatchesService } from './services/batches.ts';
import { BillingService } from './services/billing.ts';
import type { ChannelsService } from './services/channels.ts';
import { ChatCompletionsService } from './services/chat-completions.ts';
import { Conversations } from './services/conversations.ts';
import { GroupsService } from './services/groups.ts';
import { ImagesService } from './services/images.ts';
import { JournalRecorder } from './services/journal.ts';
import { ModerationService } from './services/moderations.ts';
import { presentAdminAsset, presentGroup } from './services/portrait-present.ts';
import { PriceTable } from './services/price-table.ts';
import { QuotaLedger } from './services/quota-ledger.ts';
import { RelayedResponses } from './services/relayed-responses.ts';
import { ResponsesService } from './services/responses.ts';
import { RetrievalService } from './services/retrieval.ts';
import type { StorageLimits } from './services/storage-limits.ts';
import { StoredChatCompletions } from './services/stored-chat-completions.ts';
import { StoredResponses } from './services/stored-responses.ts';
import { Tasks3dService } from './services/tasks3d.ts';
import { TokensService } from './services/tokens.ts';
import { UsageStatsService } from './services/usage-stats.ts';
import { AccountsRepo } from './storage/accounts-repo.ts';
import { AssetsRepo, type AssetRow } from './storage/assets-repo.ts';
import { BatchesRepo } from './storage/batches-repo.ts';
import { ChatCompletionsRepo } from './storage/chat-completions-repo.ts';
import { ConversationsRepo } from './storage/conversations-repo.ts';
import type { Db } from './storage/database.ts';
import { FilesRepo } from './storage/files-repo.ts';
import type { GroupCommit } from './storage/group-commit.ts';
import { GroupsRepo } from './storage/groups-repo.ts';
import { JournalThread } from './storage/journal-thread.ts';
import { PricesRepo } from './storage/prices-repo.ts';
import { RelayedResponsesRepo } from './storage/relayed-responses-repo.ts';
import { RemoteGroupsRepo } from './storage/remote-groups-repo.ts';
import { ResponsesRepo } from './storage/responses-repo.ts';
import { Tasks3dRepo } from './storage/tasks3d-repo.ts';
import { TokensRepo } from './storage/tokens-repo.ts';
import { UsageRepo } from './storage/usage-repo.ts';
import { UsageStatsRepo } from './storage/usage-stats-repo.ts';
import type { OffsetClock } from './time.ts';

/** The services of the context. */
export type ContextServices = Pick<
  GatewayContext,
  | 'accounts'
  | 'tokens'
  | 'groups'
  | 'assets'
  | 'billing'
  | 'prices'
  | 'usageStats'
  | 'retrieval'
  | 'audio'
  | 'images'
  | 'tasks3d'
  | 'journal'
  | 'journalStore'
  | 'storedResponses'
  | 'responses'
  | 'storedChatCompletions'
  | 'chatCompletions'
  | 'moderations'
  | 'files'
  | 'batches'
  | 'relayedResponses'
  | 'conversations'
>;

/** What the services are built on: storage, the clock, the events, the provider seam and the service channels. */
export interface ServiceDeps {
  db: Db;
  dataDir: string;
  clock: OffsetClock;
  events: EventEmitter<GatewayEvents>;
  reportError: (error: unknown) => void;
  writes: GroupCommit;
  channels: ChannelsService;
  providers: ProviderSelector;
  /** The portrait reviewer and 3D platform channels. */
  services: ServiceChoice;
  modelAliases: Record<string, string> | undefined;
  storageLimits: StorageLimits;
}

/** The services, and what the asset scan shares with them: the assets' table and the refresher that checks one. */
export function wireServices(deps: ServiceDeps): { services: ContextServices; assetsRepo: AssetsRepo; refresher: AssetRefresher } {
  const { db, dataDir, clock, events, reportError, writes, channels, providers, services, storageLimits } = deps;
  const accounts = new AccountsRepo(db);
  const groupsRepo = new GroupsRepo(db);
  const assetsRepo = new AssetsRepo(db);
  const assetChanged = (row: AssetRow) => events.emit('asset.changed', { ...presentAdminAsset(row), account_id: row.account_id });
  const refresher = new AssetRefresher(assetsRepo, providers, clock, assetChanged, {
    reviewers: services,
    writes,
  });
  // A model only keyless loopback channels serve (a local Ollama) costs 0 unless the owner priced it.
  const prices = new PriceTable(new PricesRepo(db), clock, (model) => channels.freeModel(model));
  const tokensRepo = new TokensRepo(db);
  const billing = new BillingService(
    new UsageRepo(db),
    clock,
    deps.modelAliases,
    {
      limits: storageLimits,
      onError: reportError,
      writes,
    },
    prices,
    new QuotaLedger((tokenId) => tokensRepo.usedMicros(tokenId) ?? 0),
  );
  const journalStore = new JournalThread(dataDir);
  const journal = new JournalRecorder({
    store: journalStore,
    onAdded: (entry) => events.emit('journal.added', entry),
    announcing: () => events.listenerCount('journal.added') > 0,
    onError: (error) => events.emit('error', error),
  });
  const storedResponses = new StoredResponses(new ResponsesRepo(db), db, clock, storageLimits);
  const conversations = new Conversations(new ConversationsRepo(db), db, clock, storageLimits);
  const responses = new ResponsesService({ providers, billing, stored: storedResponses, conversations, clock });
  const storedChatCompletions = new StoredChatCompletions({ repo: new ChatCompletionsRepo(db), db, clock, limits: storageLimits });
  const chatCompletions = new ChatCompletionsService({ providers, billing, stored: storedChatCompletions, clock });
  const moderations = new ModerationService(providers);
  const retrieval = new RetrievalService(providers, billing);
  const files = new ApiFiles({ repo: new FilesRepo(db), clock, dataDir, limits: storageLimits, onError: reportError });
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
  return {
    assetsRepo,
    refresher,
    services: {
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
      images: new ImagesService({ providers, billing, clock, dataDir, onError: reportError }),
      tasks3d: new Tasks3dService({
        repo: new Tasks3dRepo(db),
        db,
        billing,
        clock,
        dataDir,
        providers,
        mesh3dChannels: services,
        limits: storageLimits,
        onError: reportError,
      }),
      journal,
      journalStore,
      storedResponses,
      responses,
      storedChatCompletions,
      chatCompletions,
      moderations,
      files,
      batches,
      relayedResponses,
      conversations,
    },
  };
}

// The admin API's handlers, one per route of the shared contract, built on the gateway's own services.
import { type AdminApi, type AdminRouteName } from '../../../shared/admin-api.ts';
import { type AdminToken } from '../../../shared/admin-tokens.ts';
import { consoleUrlOf } from '../../../shared/console-address.ts';
import { type ScanSummary, type ServerStatus } from '../../../shared/server-status.ts';
import packageJson from '../../../package.json' with { type: 'json' };
import { JOURNAL_LIMIT } from '../../../shared/journal.ts';
import type { UnroutedPolicy } from '../../../shared/settings.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { AccountsRepo } from '../storage/accounts-repo.ts';
import type { JournalThread } from '../storage/journal-thread.ts';
import { parseAssetAdminFilter, parseJournalFilter, parseTokenCreate, parseTokenUpdate } from './admin-input.ts';
import type { AssetsService } from './assets.ts';
import { readChannelInput } from './channel-input.ts';
import { presentAdminAsset } from './portrait-present.ts';
import { fetchChannelModels } from './channel-model-fetch.ts';
import { testAllChannels, testChannel } from './channel-probe.ts';
import type { ChannelsService } from './channels.ts';
import { readPriceInput } from './price-input.ts';
import type { PriceTable } from './price-table.ts';
import { invalid, notFound } from '../errors.ts';
import { guarded } from '../safe-events.ts';
import type { GroupsService } from './groups.ts';
import type { JournalRecorder } from './journal.ts';
import { journalView } from './journal-view.ts';
import { normalizePaging } from './paging.ts';
import { rotateConsoleSecret } from './console-secret.ts';
import { listModels, type ModelDirectorySources } from './model-directory.ts';
import { useSecretStore } from './secret-access.ts';
import { issueToken, tokenSecretKey } from './token-issue.ts';
import { createConsoleKeys } from './console-token.ts';
import { saveSettings, settingsView, type LiveTargets, type SettingsContext } from './settings.ts';
import { parseAssetCreate, parseAssetListFilter, parseGroupCreate, parseGroupUpdate } from './portrait-input.ts';
import type { Tasks3dService } from './tasks3d.ts';
import type { TokensService, TokenSummary } from './tokens.ts';
import type { UsageStatsService } from './usage-stats.ts';
import type { FixtureAdmin } from '../../../shared/fixtures.ts';
import type { CassetteAdmin } from '../../../shared/cassette-admin.ts';
import { advanceClock, clockState, resetGateway, type TestingContext } from './testing-admin.ts';
import { connectHandlers } from './tool-config/connect-handlers.ts';
import type { ToolVariables } from './tool-config/tools.ts';

/** What a handler receives: typed path parameters, and the raw query and body it must validate. */
export interface AdminInput<K extends AdminRouteName> {
  params: AdminApi[K]['params'];
  query: Record<string, unknown>;
  body: unknown;
}

export type AdminHandler<K extends AdminRouteName> = (input: AdminInput<K>) => AdminApi[K]['reply'] | Promise<AdminApi[K]['reply']>;

/** One handler per admin route: leaving one out is a compile error. */
export type AdminHandlers = { [K in AdminRouteName]: AdminHandler<K> };

/** The parts of the gateway context the admin handlers use (the gateway context satisfies it). */
export interface AdminContext extends LiveTargets, TestingContext {
  readonly groups: GroupsService;
  readonly assets: AssetsService;
  readonly tokens: TokensService;
  readonly channels: ChannelsService;
  readonly prices: PriceTable;
  readonly providers: ModelDirectorySources['providers'];
  readonly usageStats: Pick<UsageStatsService, 'summary'>;
  readonly tasks3d: Pick<Tasks3dService, 'list' | 'lookup'>;
  readonly accounts: Pick<AccountsRepo, 'findByName'>;
  readonly secrets: SecretStore;
  readonly events: { emit(event: 'error', error: unknown): boolean };
  readonly runtime: LiveTargets['runtime'] & {
    readonly url: string | null;
    readonly tlsUrl: string | null;
    readonly simReviewMs: number;
    readonly journal: boolean;
    readonly startedAt: number;
    readonly unrouted: UnroutedPolicy;
    readonly modelAliases: Readonly<Record<string, string>>;
    readonly homeDir: string;
    readonly toolVariables: ToolVariables;
    adminToken: string;
    consoleSecret: 'kept' | 'per-run' | 'none';
    readonly restart: (() => void) | null;
  };
  readonly scheduler: LiveTargets['scheduler'] & { readonly nextRunAt: number | null; runNow(): Promise<ScanSummary> };
  readonly settings: SettingsContext;
  readonly journal: JournalRecorder;
  readonly journalStore: Pick<JournalThread, 'list' | 'get' | 'clear'>;
  readonly cassetteFolder: Pick<CassetteAdmin, 'list'>;
}

/** Facts the handlers need beyond the context. */
export interface AdminFacts {
  /** The last finished background scan. */
  lastScan(): ScanSummary | null;
}

export function createAdminHandlers(context: AdminContext, facts: AdminFacts): AdminHandlers {
  const { groups, assets, tokens, secrets, runtime } = context;
  const consoleKeys = createConsoleKeys(tokens, secrets, () => context.clock.now());

  const accountId = (name: string): number => {
    const account = context.accounts.findByName(name);
    if (!account) throw notFound(`Unknown account "${name}": create a token for it on the Tokens page first`, 'account');
    return account.id;
  };

  const present = async (token: TokenSummary): Promise<AdminToken> => ({
    ...token,
    revealable:
      token.revoked_at === null &&
      secrets.kind !== 'none' &&
      (await useSecretStore(secrets, (store) => store.get(tokenSecretKey(token.token_id)))) !== null,
  });

  const findToken = (tokenId: string): TokenSummary => {
    const token = tokens.list().find((item) => item.token_id === tokenId);
    if (!token) throw notFound(`Token ${tokenId} does not exist`, 'token_id');
    return token;
  };

  const status = (): ServerStatus => {
    const url = new URL(runtime.url ?? 'http://127.0.0.1:0');
    return {
      version: packageJson.version,
      mode: context.channels.list().some((channel) => channel.enabled) ? 'relay' : 'simulate',
      unrouted: runtime.unrouted,
      url: runtime.url ?? '',
      tlsUrl: runtime.tlsUrl,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port),
      dataDir: context.dataDir,
      secrets: { kind: secrets.kind, description: secrets.description, ...(secrets.cause && { cause: secrets.cause }) },
      refreshIntervalMs: runtime.refreshIntervalMs,
      simReviewMs: runtime.simReviewMs,
      corsOrigins: [...runtime.corsOrigins],
      journal: runtime.journal,
      startedAt: runtime.startedAt,
      nextScanAt: context.scheduler.nextRunAt,
      lastScan: facts.lastScan(),
      accounts: [...new Set(tokens.list().map((token) => token.account))].sort(),
      consoleSecret: runtime.consoleSecret,
      canRestart: runtime.restart !== null,
    };
  };

  return {
    getStatus: status,
    listGroups: ({ params, query }) => groups.list(accountId(params.account), normalizePaging(query['p'], query['page_size'])),
    createGroup: ({ params, body }) => groups.create(accountId(params.account), parseGroupCreate(body)),
    updateGroup: ({ params, body }) => groups.update(accountId(params.account), params.groupId, parseGroupUpdate(body)),
    listAssets: ({ params, query }) =>
      assets.list(
        accountId(params.account),
        { ...parseAssetListFilter(query), ...parseAssetAdminFilter(query) },
        normalizePaging(query['p'], query['page_size']),
        presentAdminAsset,
      ),
    deleteGroup: ({ params }) => groups.delete(accountId(params.account), params.groupId),
    deleteAsset: ({ params }) => assets.delete(accountId(params.account), params.assetId),
    reregisterAsset: ({ params, body }) => {
      const url = (body as { url?: unknown } | null | undefined)?.url;
      return assets.reregister(accountId(params.account), params.assetId, typeof url === 'string' ? url : '');
    },
    createAsset: ({ params, body }) => assets.create(accountId(params.account), parseAssetCreate(body), undefined, presentAdminAsset),
    refreshAsset: ({ params }) => assets.get(accountId(params.account), params.assetId, undefined, presentAdminAsset),
    runScan: () => context.scheduler.runNow(),
    listTokens: async ({ query }) => {
      const account = typeof query['account'] === 'string' && query['account'] !== '' ? query['account'] : undefined;
      return Promise.all(tokens.list(account).map(present));
    },
    createToken: async ({ body }) => {
      // The token exists only once its secret is kept; a store that fails creates nothing and answers 503 saying why.
      const { secret, token } = await issueToken(tokens, secrets, parseTokenCreate(body, context.clock.now()));
      return { secret, token: await present(token) };
    },
    revokeToken: async ({ params }) => {
      findToken(params.tokenId);
      tokens.revoke(params.tokenId);
      // A revoked secret opens nothing any more; the store need not keep it.
      await secrets.delete(tokenSecretKey(params.tokenId)).catch(() => false);
      return present(findToken(params.tokenId));
    },
    updateToken: ({ params, body }) => {
      findToken(params.tokenId);
      tokens.update(params.tokenId, parseTokenUpdate(body, context.clock.now()));
      return present(findToken(params.tokenId));
    },
    deleteToken: async ({ params }) => {
      const token = findToken(params.tokenId);
      if (token.revoked_at === null) throw invalid('Only a revoked token can be deleted: revoke it first', 'token_id');
      tokens.deleteRevoked(params.tokenId);
      await secrets.delete(tokenSecretKey(params.tokenId)).catch(() => false);
      return { ...token, revealable: false };
    },
    revealToken: async ({ params }) => {
      const token = findToken(params.tokenId);
      const secret = token.revoked_at === null ? await useSecretStore(secrets, (store) => store.get(tokenSecretKey(params.tokenId))) : null;
      if (secret === null) {
        throw notFound(
          secrets.kind === 'none'
            ? 'No copy of this secret was kept (the gateway runs without a keychain): create a new token instead'
            : 'The secret store holds no copy of this token: create a new token instead',
          'token_id',
        );
      }
      return { secret };
    },
    obtainConsoleKey: ({ params }) => consoleKeys.obtain(params.account),
    getSettings: () => settingsView(context.settings, context),
    saveSettings: async ({ body }) => {
      const listed = (await listModels(context)).filter((model) => model.aliasOf === null).map((model) => model.id);
      return saveSettings(context.settings, context, body, listed);
    },
    listJournal: async ({ query }) => {
      // Entries of the last moment are still in their batch: post them first (the thread answers in order), so a fresh call is listed.
      void context.journal.flush();
      const { page, pageSize } = normalizePaging(query['p'], query['page_size']);
      return {
        page,
        page_size: pageSize,
        ...(await context.journalStore.list(parseJournalFilter(query), page, pageSize)),
        unauthenticated_calls: context.journal.unauthenticated,
      };
    },
    getJournalEntry: async ({ params }) => {
      void context.journal.flush();
      const id = /^\d{1,15}$/.test(params.entryId) ? Number(params.entryId) : Number.NaN;
      const entry = Number.isSafeInteger(id) ? await context.journalStore.get(id) : undefined;
      if (!entry)
        throw notFound(`Journal entry ${params.entryId} does not exist (the journal keeps the newest ${JOURNAL_LIMIT})`, 'entryId');
      return journalView(entry);
    },
    clearJournal: async () => {
      void context.journal.flush();
      return { removed: await context.journalStore.clear() };
    },
    listTasks3d: async ({ query }) => {
      const paging = normalizePaging(query['p'], query['page_size']);
      const account = typeof query['account'] === 'string' && query['account'] !== '' ? accountId(query['account']) : undefined;
      // File URLs stay paths: the console joins them to the address it reached the gateway by (HTTP or TLS).
      return { page: paging.page, page_size: paging.pageSize, ...(await context.tasks3d.list(account, paging, '')) };
    },
    getTask3d: ({ params }) => context.tasks3d.lookup(params.taskId, ''),
    listChannels: () => context.channels.list(),
    createChannel: ({ body }) => context.channels.add(readChannelInput(body)),
    updateChannel: ({ params, body }) => context.channels.update(channelIdOf(context.channels, params.channelId), readChannelInput(body)),
    removeChannel: ({ params }) => context.channels.remove(channelIdOf(context.channels, params.channelId)),
    testChannel: ({ params, body }) => {
      const model = (body as { model?: unknown } | undefined)?.model;
      if (model !== undefined && typeof model !== 'string') throw invalid('model must be a string', 'model');
      return testChannel(context.channels, channelIdOf(context.channels, params.channelId), model);
    },
    testAllChannels: () => testAllChannels(context.channels),
    fetchChannelModels: ({ params, body }) => {
      const save = (body as { save?: unknown } | undefined)?.save;
      if (save !== undefined && typeof save !== 'boolean') throw invalid('save must be true or false', 'save');
      return fetchChannelModels(context.channels, channelIdOf(context.channels, params.channelId), { save: save === true });
    },
    ...fixtureHandlers(context.fixtures),
    listCassettes: ({ query }) => context.cassetteFolder.list(query, normalizePaging(query['p'], query['page_size'])),
    reset: ({ body }) => resetGateway(context, body),
    getClock: () => clockState(context.clock),
    advanceClock: ({ body }) => advanceClock(context, body),
    listPrices: () => context.prices.list(),
    getPrice: ({ params }) => context.prices.get(params.model),
    setPrice: ({ params, body }) => context.prices.set(params.model, readPriceInput(body)),
    resetPrice: ({ params }) => context.prices.reset(params.model),
    getUsageStats: ({ query }) => context.usageStats.summary(query['days']),
    listModels: () => listModels(context),
    ...connectHandlers(() => ({
      home: runtime.homeDir,
      variables: runtime.toolVariables,
      baseUrl: runtime.url ?? '',
      tokens,
      secrets,
      models: () => listModels(context),
      now: () => context.clock.now(),
      addChannel: (input) => context.channels.add(readChannelInput(input)),
    })),
    restartServer: () => {
      const restart = runtime.restart;
      if (!restart) throw invalid('This server cannot restart itself: restart the app that runs it');
      // After this answer is on its way: the host stops this gateway (in-flight calls finish) and starts a new one.
      setTimeout(
        guarded((error) => context.events.emit('error', error), restart),
        50,
      ).unref();
      return { restarting: true };
    },
    rotateConsoleSecret: async () => {
      if (runtime.consoleSecret === 'none')
        throw invalid(
          'This console address is made for this run only (no secret store, or the desktop window): no console secret can be kept',
        );
      const secret = await useSecretStore(secrets, (store) => rotateConsoleSecret(store, context.dataDir));
      // From now on only the new address opens the console and the admin API.
      runtime.adminToken = secret;
      runtime.consoleSecret = 'kept';
      return { consoleUrl: consoleUrlOf(runtime.url ?? '', secret) };
    },
  };
}

/** The admin API names channels by id only (a name could be mistaken for another channel's id). */
function channelIdOf(channels: ChannelsService, channelId: string): string {
  const channel = channels.find(channelId);
  if (!channel || channel.id !== channelId) throw notFound(`Channel ${channelId.slice(0, 80)} does not exist`, 'channelId');
  return channelId;
}

/** The fixtures routes: list, add (one, a list, or `{fixtures, test_id}`), replace or remove one runtime fixture, remove all, reset counters. */
function fixtureHandlers(
  fixtures: FixtureAdmin,
): Pick<AdminHandlers, 'listFixtures' | 'addFixtures' | 'removeFixtures' | 'updateFixture' | 'removeFixture' | 'resetFixtureCounters'> {
  const testIdOf = (value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw invalid('test_id must be a non-empty string', 'test_id');
    return value;
  };
  const runtimeIdOf = (value: string): number => (/^\d{1,9}$/.test(value) ? Number(value) : missing(value));
  const missing = (value: string): never => {
    throw notFound(`No runtime fixture has the id ${value.slice(0, 80)} (fixtures loaded from files cannot be changed here)`, 'fixtureId');
  };
  return {
    listFixtures: ({ query }) => ({ fixtures: fixtures.list(testIdOf(query['test_id'])) }),
    addFixtures: ({ body }) => {
      if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'fixtures' in body) {
        const { fixtures: list, test_id } = body as { fixtures: unknown; test_id?: unknown };
        return { added: fixtures.add({ fixtures: list }, testIdOf(test_id) ?? null) };
      }
      return { added: fixtures.add(body) };
    },
    removeFixtures: ({ query }) => ({ removed: fixtures.remove(testIdOf(query['test_id'])) }),
    updateFixture: ({ params, body }) => fixtures.replace(runtimeIdOf(params.fixtureId), body) ?? missing(params.fixtureId),
    removeFixture: ({ params }) => (fixtures.removeOne(runtimeIdOf(params.fixtureId)) ? { removed: 1 } : missing(params.fixtureId)),
    resetFixtureCounters: ({ body }) => {
      fixtures.resetCounters(testIdOf((body as { test_id?: unknown } | undefined)?.test_id));
      return { reset: true };
    },
  };
}

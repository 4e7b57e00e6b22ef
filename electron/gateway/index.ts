// The gateway as a library: createGateway(config) → { start, stop, url, events }, host-agnostic plain Node.
import type { FastifyInstance } from 'fastify';
import { DEFAULTS, LOCAL_ACCOUNT, type GatewayConfig } from './config.ts';
import { createContext, type GatewayContext } from './context.ts';
import { buildApp } from './server/app.ts';
import { REALTIME_LIMITS } from './realtime/limits.ts';
import { chooseSubprotocol } from './routes/admin-socket.ts';
import { consoleUrlOf } from '../../shared/console-address.ts';
import { keptConsoleSecret, rotateConsoleSecret } from './services/console-secret.ts';
import { issueToken } from './services/token-issue.ts';
import { ROUTE_FAMILIES, SOCKET_ROUTE_FAMILIES } from './routes/index.ts';
import { CONNECTION_LIMITS, ConnectionGuard } from './server/connection-guard.ts';
import { normalizeHostName, type HostPolicy } from './server/host-names.ts';
import { listen } from './server/listen.ts';
import { listenTls, type TlsListener } from './server/tls/listener.ts';
import { watchIdleMemory } from './server/idle-memory.ts';
import { openProductDatabase } from './open-stores.ts';
import { WalCheckpointer } from './storage/wal-checkpoint.ts';
import { openSimulateStore } from './providers/simulate/store.ts';
import { loadFixtureFiles } from './providers/fixtures/loader.ts';
import { FixtureStore } from './providers/fixtures/store.ts';
import { CassetteFolderAdmin } from './providers/replay/folder-admin.ts';
import type { Db } from './storage/database.ts';
import type { SettingsContext } from './services/settings.ts';
import { systemClock } from './time.ts';
import { FIXED_TOKEN_RULE, isTokenLike } from './ids.ts';
import { forgetListening, noteListening } from './options/listening-file.ts';

export type { GatewayConfig } from './config.ts';
// What hosts use besides createGateway (they import only this module and options/).
export { DEFAULTS } from './config.ts';
export { selectSecretStore, SECRET_MODES, type SecretMode } from './secrets/select-store.ts';
export { openTokenAdmin, type TokenAdmin } from './token-admin.ts';
export { openChannelAdmin, type ChannelAdmin } from './channel-admin.ts';
export { openPriceAdmin, type PriceAdmin } from './price-admin.ts';
export { openConnectAdmin, type ConnectAdmin } from './connect-admin.ts';
export { applyConnect, planConnect, undoConnect } from './services/tool-config/connect.ts';
export { readPriceInput } from './services/price-input.ts';
export { rotateConsoleSecret } from './services/console-secret.ts';
export { testAllChannels, testChannel } from './services/channel-probe.ts';
export { fetchChannelModels } from './services/channel-model-fetch.ts';
export { parseHeaderLine } from './services/channel-input.ts';
export { GatewayError } from './errors.ts';
export { MICROS, type TokenSummary } from './services/tokens.ts';
export { issueToken } from './services/token-issue.ts';
export { parseRfc3339, rfc3339 } from './time.ts';
/** Failures the user can fix, which hosts report in one plain line. */
export { DataDirError } from './storage/data-dir-check.ts';
export { LockTimeoutError } from './secrets/file-lock.ts';
export { SecretsFileError } from './secrets/file-store.ts';
export { FixturesError } from './providers/fixtures/problems.ts';
/** `gatehouse fixtures validate`: the same load as `serve --fixtures`, without serving. */
export { loadFixtureFiles } from './providers/fixtures/loader.ts';
/** `gatehouse cassette`: a record/replay folder read as the console lists it, and the data dir's database file. */
export { CassetteCatalog, cassetteBlobs, readCassetteFile, replayRunOf } from './providers/replay/catalog.ts';
export { DATABASE_FILE } from './storage/database.ts';
export { CassetteStore } from './providers/replay/store.ts';

/** What start() reports to the host. */
export interface StartResult {
  url: string;
  /** Set only on the first start of an empty data dir: the `local` account's token, to show once. */
  firstToken?: string;
  /** The console's ready-to-open URL, carrying the per-launch admin token. */
  consoleUrl: string;
  /** The TLS listener's URL and the CA file clients must trust, when TLS is on. */
  tlsUrl?: string;
  caPath?: string;
  /** Set when this start replaced an existing local CA: one line telling the user to trust the new one. */
  caNotice?: string;
}

export interface Gateway {
  readonly context: GatewayContext;
  readonly events: GatewayContext['events'];
  /** The listening URL once started. */
  readonly url: string | undefined;
  /** The admin token of the console and admin API: the kept console secret, or one made for this run (memory only). */
  readonly adminToken: string;
  start(): Promise<StartResult>;
  /** Open connections of both listeners, and how many of them have not yet presented a valid token. */
  connections(): { open: number; unauthenticated: number };
  /**
   * Stops accepting requests, lets in-flight ones finish for at most the shutdown grace time (then closes every
   * connection left), stops the scan and closes the database.
   */
  stop(): Promise<void>;
}

export async function createGateway(config: GatewayConfig): Promise<Gateway> {
  // Under `gatehouse serve` a console secret kept in the secret store (from the first start on) makes the printed address
  // work across restarts; the desktop window (its own token) and `--secrets none` have a per-run address only, and so does
  // a start whose secret store cannot keep one now.
  const bookmarkable = config.bookmarkableConsole === true && config.secrets.kind !== 'none';
  if (config.token !== undefined && !isTokenLike(config.token)) throw new Error(`token ${FIXED_TOKEN_RULE}`);
  // Fixtures are read before anything is opened: a problem in one stops the start with every problem named.
  const fixtures = new FixtureStore(config.fixtures && config.fixtures.length > 0 ? loadFixtureFiles(config.fixtures) : []);
  // Opened first: it makes the data dir, where a file secret store keeps the console secret.
  const db = openProductDatabase(config.dataDir);
  // An admin token given for this run wins: no console secret is read or kept then. A token carried over a restart
  // becomes the kept secret when the store now keeps one (a switch to a keeping store), so the open console keeps working.
  const keptSecret =
    bookmarkable && config.adminToken === undefined
      ? (config.carriedAdminToken &&
          (await rotateConsoleSecret(config.secrets, config.dataDir, config.carriedAdminToken).catch(() => null))) ||
        (await keptConsoleSecret(config.secrets, config.dataDir)) ||
        (await rotateConsoleSecret(config.secrets, config.dataDir).catch(() => null))
      : null;
  const adminToken = config.adminToken ?? keptSecret ?? config.carriedAdminToken;
  // The simulated reviewer keeps its state in its own file; a host's reviewer needs none.
  let simulateDb: Db | undefined;
  try {
    if (!config.reviewer) simulateDb = openSimulateStore(config.dataDir);
  } catch (error) {
    db.close();
    throw error;
  }
  const cassetteFolder = new CassetteFolderAdmin(config, (error) => context.events.emit('error', error));
  const opened = (options: Parameters<typeof createContext>[0]) => {
    try {
      return createContext(options);
    } catch (error) {
      // A cassette folder over its bounds (or a damaged cassette, with --replay-ignore) stops the start with nothing left open.
      simulateDb?.close();
      db.close();
      throw error;
    }
  };
  const context = opened({
    db,
    ...(simulateDb && { simulateDb }),
    dataDir: config.dataDir,
    clock: config.clock ?? systemClock,
    secrets: config.secrets,
    refreshIntervalMs: config.refreshIntervalMs ?? DEFAULTS.refreshIntervalMs,
    simReviewMs: config.simReviewMs ?? DEFAULTS.simReviewMs,
    sim3dMs: config.sim3dMs ?? DEFAULTS.sim3dMs,
    ...(config.reviewer && { reviewer: config.reviewer }),
    ...(config.providers && { providers: config.providers }),
    ...(config.channels && { channels: config.channels }),
    ...(config.unrouted && { unrouted: config.unrouted }),
    fixtures,
    ...(config.strict && { strict: true }),
    cassetteOptions: {
      ...(config.record && { record: config.record }),
      ...(config.replay && { replay: config.replay }),
      ...(config.replayWait && { replayWait: config.replayWait }),
    },
    cassetteFolder,
    ...(adminToken && { adminToken }),
    consoleSecret: keptSecret ? 'kept' : bookmarkable ? 'per-run' : 'none',
    ...(config.restart && { restart: config.restart }),
    ...(config.modelAliases && { modelAliases: config.modelAliases }),
    ...(config.homeDir && { homeDir: config.homeDir }),
    ...(config.toolVariables && { toolVariables: config.toolVariables }),
    ...(config.corsOrigins && { corsOrigins: config.corsOrigins }),
    hosts: hostPolicyOf(config),
    ...(config.journal !== undefined && { journal: config.journal }),
    ...(config.media && { media: config.media }),
    ...(config.storageLimits && { storageLimits: config.storageLimits }),
    settings: settingsOf(config),
  });
  let app: FastifyInstance | undefined;
  let url: string | undefined;
  let tls: TlsListener | undefined;
  let stopIdleMemory: (() => void) | undefined;
  let stopped = false;
  const limits = { ...CONNECTION_LIMITS, ...config.connectionLimits };
  const guard = new ConnectionGuard(limits);
  const report = (error: unknown) => context.events.emit('error', error);
  // The WAL's checkpoints run on a thread of their own from the start on, never inside a commit on the event loop.
  const checkpointer = new WalCheckpointer(db, { onError: report });

  // Made once per gateway, not per call: its accessors being old costs nothing.
  /* eslint-disable no-restricted-syntax */
  return {
    context,
    events: context.events,
    get url() {
      return url;
    },
    get adminToken() {
      return context.runtime.adminToken;
    },
    /* eslint-enable no-restricted-syntax */
    connections: () => guard.counts(),
    async start() {
      app = await buildApp({
        context,
        routes: ROUTE_FAMILIES,
        sockets: SOCKET_ROUTE_FAMILIES,
        chooseSubprotocol,
        maxSocketMessageBytes: REALTIME_LIMITS.eventBytes,
        limits,
      });
      guard.watch(app.server, 'connection');
      let caPath: string | undefined;
      let caNotice: string | undefined;
      try {
        url = await listen(app, config.host ?? DEFAULTS.host, config.port ?? DEFAULTS.port);
        // A server error after listening (a failed accept) is reported, never thrown out of the process.
        app.server.on('error', report);
        if (config.tlsPort !== undefined && config.tlsPort !== null) {
          // node-forge (the certificates' maker) loads only when a TLS listener is asked for.
          const { ensureCertificates, renewLeaf } = await import('./server/tls/certificates.ts');
          const certificates = ensureCertificates(config.dataDir);
          ({ caPath, caNotice } = certificates);
          tls = await listenTls(
            app,
            certificates,
            config.host ?? DEFAULTS.host,
            config.tlsPort,
            { renew: () => renewLeaf(config.dataDir) },
            guard,
            report,
          );
        }
      } catch (error) {
        // A taken port: release what did bind; nothing was created yet (the first token comes only once listening).
        guard.closeAll();
        await Promise.all([app.close(), tls?.close()]).catch(() => {});
        app = undefined;
        tls = undefined;
        throw error;
      }
      context.runtime.url = url;
      if (tls) context.runtime.tlsUrl = tls.url;
      // A given token first: with it the data dir has an account, and no first token is made.
      if (config.token !== undefined) context.tokens.ensureGiven(config.token, LOCAL_ACCOUNT);
      // After listening, so a start that cannot bind creates no token nobody will ever see.
      const firstToken = await bootstrap(context);
      context.scheduler.start();
      context.batchRunner.start();
      cassetteFolder.start(context.clock);
      // After a burst of calls, the heap it grew goes back (server/idle-memory.ts).
      if (config.reclaimIdleMemory) stopIdleMemory = watchIdleMemory(app.server);
      // A moment after listening, so the thread's start-up does not delay the first answers.
      checkpointer.startSoon();
      // Read by `gatehouse connect` for the address a tool should use (options/listening-file.ts), once started whole.
      noteListening(config.dataDir, url);
      return {
        url,
        consoleUrl: consoleUrlOf(url, context.runtime.adminToken),
        ...(firstToken && { firstToken }),
        ...(tls && { tlsUrl: tls.url, caPath }),
        ...(caNotice && { caNotice }),
      };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (url !== undefined) forgetListening(config.dataDir);
      stopIdleMemory?.();
      // Both listeners stop accepting, idle and already-answered connections close now, requests in flight get
      // CONNECTION_LIMITS.shutdownGraceMs to finish, then every connection left is closed: stop always completes.
      const closing = Promise.all([app?.close(), tls?.close()]);
      guard.drain();
      await closing;
      guard.closeAll();
      await context.media.close();
      await context.scheduler.stop();
      await context.batchRunner.stop();
      await cassetteFolder.stop();
      // What was recorded is posted, then the thread commits it all and closes journal.sqlite (bounded: JOURNAL_STOP_MS).
      const recorded = context.journal.stop();
      await context.journalStore.stop();
      await recorded;
      context.writes.flush();
      // Its last checkpoint and its connection closed first, so closing the database (then its last connection) removes the WAL.
      await checkpointer.stop();
      // What a call ending meanwhile queued, whose commit would come after the close.
      context.writes.flush();
      db.close();
      simulateDb?.close();
    },
  };
}

/** The Host names this gateway answers to besides the loopback ones; an entry that is no host name is a configuration error. */
function hostPolicyOf(config: GatewayConfig): HostPolicy {
  const allowedHosts = (config.allowedHosts ?? []).map((entry) => {
    const name = normalizeHostName(entry);
    if (name === undefined) throw new Error(`allowedHosts: "${entry}" is not a host name or IP address`);
    return name;
  });
  return { listenHost: config.host ?? DEFAULTS.host, allowedHosts };
}

/** What this run was started with, for the Settings page; the host's settings file, when it keeps one. */
function settingsOf(config: GatewayConfig): SettingsContext {
  return {
    host: config.settings,
    started: {
      host: config.host ?? DEFAULTS.host,
      port: config.settings?.intended?.port ?? config.port ?? DEFAULTS.port,
      tlsPort: config.settings?.intended ? config.settings.intended.tlsPort : (config.tlsPort ?? null),
      corsOrigins: config.corsOrigins ?? [],
      refreshIntervalMs: config.refreshIntervalMs ?? DEFAULTS.refreshIntervalMs,
      dataDir: config.dataDir,
      unrouted: config.unrouted ?? 'auto',
      modelAliases: { ...config.modelAliases },
      ...(config.secretMode && { secrets: config.secretMode }),
    },
  };
}

/** On an empty data dir, creates account `local` with one token kept in the secret store and returns it (none when the store fails: the next start tries again). */
async function bootstrap(context: GatewayContext): Promise<string | undefined> {
  if (context.accounts.count() > 0) return undefined;
  try {
    return (await issueToken(context.tokens, context.secrets, { account: LOCAL_ACCOUNT, name: 'first token' })).secret;
  } catch (error) {
    // Hosts log the cause; `gatehouse token create` makes a token once the store works.
    context.events.emit('error', error);
    return undefined;
  }
}

// `gatehouse serve`: runs the gateway headless until SIGINT/SIGTERM, then stops it gracefully; restarts it with the saved settings when the console asks.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway, selectSecretStore, type Gateway } from '../gateway/index.ts';
import { UsageError } from '../gateway/options/serve-options.ts';
import { toolHomeDir, toolVariables } from '../gateway/options/home-dir.ts';
import { npmSwallowedMessage } from './npm-args.ts';
import { parseServeOptions, SERVE_OPTION_NAMES } from './options.ts';

/** Where the CLI writes: stdout for what scripts read, stderr for diagnostics. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

export async function serve(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<void> {
  // `npm start --port 8800` without `--`: npm keeps --port, and the gateway would start on the default port instead.
  const swallowed = npmSwallowedMessage(env, SERVE_OPTION_NAMES, args);
  if (swallowed) throw new UsageError(swallowed);
  // `--ephemeral`: one temporary data dir for the whole run (restarts included), removed however the process ends.
  const ephemeralDir = parseServeOptions(args, env).ephemeral ? makeEphemeralDir() : undefined;
  try {
    // A per-run admin token (no kept console secret) is handed on across restarts, so an open console keeps working.
    let adminToken: string | undefined;
    for (;;) {
      const outcome = await runOnce(args, env, io, adminToken, ephemeralDir?.path);
      if (outcome.kind === 'stopped') {
        io.err('stopped');
        return;
      }
      adminToken = outcome.adminToken;
    }
  } finally {
    ephemeralDir?.remove();
  }
}

/** A fresh temporary data dir, removed by `remove()` or, at the latest, when the process exits (a second signal exits at once). */
function makeEphemeralDir(): { path: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-ephemeral-'));
  const remove = () => {
    process.off('exit', remove);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', remove);
  return { path: dir, remove };
}

/** How one run of the gateway ended: a signal stopped it, or the console asked for a restart (the gateway is stopped by then). */
type RunOutcome = { kind: 'stopped' } | { kind: 'restart'; adminToken: string | undefined };

/** Resolves the options afresh (the settings file as saved now), runs one gateway and waits for a signal or a restart request. */
async function runOnce(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: Output,
  handedOn: string | undefined,
  ephemeralDir: string | undefined,
): Promise<RunOutcome> {
  const resolved = parseServeOptions(args, env);
  const options = ephemeralDir ? { ...resolved, dataDir: ephemeralDir } : resolved;
  const { store, warning } = await selectSecretStore(options.secrets, options.dataDir);
  if (warning) io.err(`warning: ${warning}`);
  const { settingsFile, defaultDataDir, pinned, ephemeral, readyJson, ...config } = options;
  let requestRestart = () => {};
  const restartRequested = new Promise<'restart'>((resolve) => (requestRestart = () => resolve('restart')));
  const gateway = await createGateway({
    ...config,
    secrets: store,
    secretMode: options.secrets,
    // GATEHOUSE_ADMIN_TOKEN wins; else the per-run token of the run before a restart.
    ...(options.adminToken && { adminToken: options.adminToken }),
    ...(handedOn && { carriedAdminToken: handedOn }),
    bookmarkableConsole: true,
    reclaimIdleMemory: true,
    homeDir: toolHomeDir(env),
    toolVariables: toolVariables(env),
    restart: () => requestRestart(),
    ...(settingsFile && { settings: { file: settingsFile, defaultDataDir, pinned } }),
  });
  gateway.events.on('error', (error) => io.err(`error: ${error instanceof Error ? error.stack : String(error)}`));
  gateway.events.on('scan.finished', (report) => {
    if (report.checked > 0) io.err(`background scan refreshed ${report.checked} pending asset(s)`);
  });

  // Signal handlers go in before anything is printed: a script may send SIGTERM as soon as it reads the URL.
  const signals = stopOnSignal(gateway, io);
  const { url, firstToken, consoleUrl, tlsUrl, caPath, caNotice } = await gateway.start();
  io.err(`data dir: ${options.dataDir}; secrets: ${store.description}; settings file: ${settingsFile ?? 'off'}`);
  if (options.fixtures.length > 0 || options.strict) {
    const loaded = gateway.context.fixtures.list().length;
    io.err(
      `fixtures: ${loaded} loaded from ${options.fixtures.join(', ') || 'no file'}${options.strict ? '; strict: unmatched calls are refused' : ''}`,
    );
  }
  if (options.record) io.err(`record: exchanges are saved as cassettes in ${options.record.dir}`);
  if (options.replay)
    io.err(`replay: answering from the cassettes in ${options.replay.dir} (miss: ${options.replay.miss}, speed: ${options.replay.speed})`);
  if (ephemeral) io.err(`ephemeral: the data dir ${options.dataDir} is removed at exit`);
  if (firstToken) io.out(`first start: created account "local" with API token (shown once): ${firstToken}`);
  io.out(`listening on ${url}`);
  io.out(`console: ${consoleUrl}`);
  if (tlsUrl) {
    io.out(`tls listening on ${tlsUrl}`);
    io.out(`tls ca: ${caPath} (trust it with NODE_EXTRA_CA_CERTS=${caPath})`);
  }
  if (caNotice) io.err(caNotice);
  // One line a script parses instead of the lines above (which stay, for people).
  if (readyJson)
    io.out(
      JSON.stringify({
        url,
        tls_url: tlsUrl ?? null,
        console_url: consoleUrl,
        admin_token: gateway.adminToken,
        token: options.token ?? firstToken ?? null,
      }),
    );
  const why = await Promise.race([signals.stopped.then(() => 'stopped' as const), restartRequested]);
  if (why === 'stopped') return { kind: 'stopped' };
  signals.dispose();
  io.err('restarting with the saved settings: finishing in-flight requests first');
  await gateway.stop();
  return {
    kind: 'restart',
    adminToken: options.adminToken || gateway.context.runtime.consoleSecret === 'kept' ? undefined : gateway.adminToken,
  };
}

/** `stopped` resolves once SIGINT or SIGTERM has stopped the gateway (a second signal exits at once); `dispose` removes the handlers. */
function stopOnSignal(gateway: Gateway, io: Output): { stopped: Promise<void>; dispose: () => void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.err(`${signal} again: exiting now`);
        process.exit(1);
      }
      stopping = true;
      io.err(`${signal}: finishing in-flight requests and stopping`);
      gateway.stop().then(resolve, (error: unknown) => {
        io.err(`error while stopping: ${String(error)}`);
        resolve();
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return {
    stopped,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

// `gatehouse serve`: runs the gateway headless until SIGINT/SIGTERM, then stops it gracefully; restarts it with the saved settings when the console asks.
import { createGateway, selectSecretStore, type Gateway } from '../gateway/index.ts';
import { parseServeOptions } from './options.ts';

/** Where the CLI writes: stdout for what scripts read, stderr for diagnostics. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

export async function serve(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<void> {
  // A per-run admin token (no kept console secret) is handed on across restarts, so an open console keeps working.
  let adminToken: string | undefined;
  for (;;) {
    const outcome = await runOnce(args, env, io, adminToken);
    if (outcome.kind === 'stopped') {
      io.err('stopped');
      return;
    }
    adminToken = outcome.adminToken;
  }
}

/** How one run of the gateway ended: a signal stopped it, or the console asked for a restart (the gateway is stopped by then). */
type RunOutcome = { kind: 'stopped' } | { kind: 'restart'; adminToken: string | undefined };

/** Resolves the options afresh (the settings file as saved now), runs one gateway and waits for a signal or a restart request. */
async function runOnce(args: string[], env: NodeJS.ProcessEnv, io: Output, adminToken: string | undefined): Promise<RunOutcome> {
  const options = parseServeOptions(args, env);
  const { store, warning } = await selectSecretStore(options.secrets, options.dataDir);
  if (warning) io.err(`warning: ${warning}`);
  const { settingsFile, defaultDataDir, pinned, ...config } = options;
  let requestRestart = () => {};
  const restartRequested = new Promise<'restart'>((resolve) => (requestRestart = () => resolve('restart')));
  const gateway = await createGateway({
    ...config,
    secrets: store,
    ...(adminToken && { adminToken }),
    bookmarkableConsole: true,
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
  if (firstToken) io.out(`first start: created account "local" with API token (shown once): ${firstToken}`);
  io.out(`listening on ${url}`);
  io.out(`console: ${consoleUrl}`);
  if (tlsUrl) {
    io.out(`tls listening on ${tlsUrl}`);
    io.out(`tls ca: ${caPath} (trust it with NODE_EXTRA_CA_CERTS=${caPath})`);
  }
  if (caNotice) io.err(caNotice);
  const why = await Promise.race([signals.stopped.then(() => 'stopped' as const), restartRequested]);
  if (why === 'stopped') return { kind: 'stopped' };
  signals.dispose();
  io.err('restarting with the saved settings: finishing in-flight requests first');
  await gateway.stop();
  return { kind: 'restart', adminToken: gateway.context.runtime.consoleSecret === 'kept' ? undefined : gateway.adminToken };
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

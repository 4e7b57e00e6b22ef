// `gatehouse serve`: runs the gateway headless until SIGINT/SIGTERM, then stops it gracefully.
import { createGateway, selectSecretStore, type Gateway } from '../gateway/index.ts';
import { parseServeOptions } from './options.ts';

/** Where the CLI writes: stdout for what scripts read, stderr for diagnostics. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

export async function serve(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<void> {
  const options = parseServeOptions(args, env);
  const { store, warning } = await selectSecretStore(options.secrets, options.dataDir);
  if (warning) io.err(`warning: ${warning}`);
  const { settingsFile, defaultDataDir, pinned, ...config } = options;
  const gateway = await createGateway({
    ...config,
    secrets: store,
    ...(settingsFile && { settings: { file: settingsFile, defaultDataDir, pinned } }),
  });
  gateway.events.on('error', (error) => io.err(`error: ${error instanceof Error ? error.stack : String(error)}`));
  gateway.events.on('scan.finished', (report) => {
    if (report.checked > 0) io.err(`background scan refreshed ${report.checked} pending asset(s)`);
  });

  // Signal handlers go in before anything is printed: a script may send SIGTERM as soon as it reads the URL.
  const stopped = stopOnSignal(gateway, io);
  const { url, firstToken, consoleUrl, tlsUrl, caPath, caNotice } = await gateway.start();
  io.err(`data dir: ${options.dataDir}; secrets: ${store.description}; settings file: ${settingsFile ?? 'off'}`);
  if (firstToken) io.out(`first start: created account "local" with API token (shown once): ${firstToken}`);
  io.out(`listening on ${url}`);
  io.out(`console: ${consoleUrl}`);
  if (tlsUrl) {
    io.out(`tls listening on ${tlsUrl}`);
    io.out(`tls ca: ${caPath} (trust it with NODE_EXTRA_CA_CERTS=${caPath})`);
  }
  if (caNotice) io.err(caNotice);
  await stopped;
  io.err('stopped');
}

/** Resolves once SIGINT or SIGTERM has stopped the gateway; a second signal exits at once. */
function stopOnSignal(gateway: Gateway, io: Output): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
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
}

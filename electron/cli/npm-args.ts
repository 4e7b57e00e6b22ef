// Options npm took as its own: `npm start --port 8800` (no `--`) hands `--port` to npm, which exposes it as `npm_config_port`.

/**
 * The refusal for a run where npm swallowed some of `names`, or undefined. Under an npm script (`npm_lifecycle_event` is
 * set) an option npm does not know never reaches the script as an argument: npm keeps it as the variable
 * `npm_config_<name>` (dashes as underscores; npm 11 sets it to `true` and passes the value on as a bare argument, older
 * npm set it to the value). The message names the options and shows the command that passes them on: `npm start -- --port 8800`.
 */
export function npmSwallowedMessage(env: NodeJS.ProcessEnv, names: readonly string[], args: readonly string[]): string | undefined {
  const script = env['npm_lifecycle_event'];
  if (!script) return undefined;
  const swallowed: string[] = [];
  for (const name of names) {
    const value = env[`npm_config_${name.replaceAll('-', '_')}`];
    if (value === undefined) continue;
    swallowed.push(value === '' || value === 'true' ? `--${name}` : `--${name} ${value}`);
  }
  if (swallowed.length === 0) return undefined;
  const run = script === 'start' ? 'npm start' : `npm run ${script}`;
  return (
    `npm took ${swallowed.join(', ')} as its own option, so Gatehouse never saw it. ` +
    `Put -- before Gatehouse's options: ${[run, '--', ...swallowed, ...args].join(' ')}`
  );
}

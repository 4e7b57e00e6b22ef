// The desktop app's options: serve's flags' environment mirrors and settings file, without the switches that only mean something to `gatehouse serve` in a terminal.
import { envValue, SERVE_ENV, SWITCH_VALUES } from '../gateway/options/serve-env.ts';
import { resolveServeOptions, type ServeOptions } from '../gateway/options/serve-options.ts';

/** Switches of `gatehouse serve` the app does not take: a temporary data dir for one terminal run, a line printed for a script. */
export const SERVE_ONLY_ENV = [SERVE_ENV.ephemeral, SERVE_ENV['ready-json']] as const;

/**
 * The app's options from `env` (as `gatehouse serve` reads its variables and the settings file of `appDir`), the serve-only
 * switches left out, and the names of those that were on (the app says so as it starts): a `GATEHOUSE_EPHEMERAL=1` left in
 * a shell would otherwise half apply (no secret store and no settings, on the user's own data).
 */
export function desktopOptions(env: NodeJS.ProcessEnv, appDir: string): { options: ServeOptions; ignored: string[] } {
  // Named unless it is unset or off (a value serve would refuse is named too: the app takes none of it).
  const ignored = SERVE_ONLY_ENV.filter((name) => {
    const value = envValue(env, name)?.toLowerCase();
    return value !== undefined && !SWITCH_VALUES.off.includes(value);
  });
  const kept = { ...env };
  for (const name of SERVE_ONLY_ENV) delete kept[name];
  return { options: resolveServeOptions([], kept, appDir), ignored };
}

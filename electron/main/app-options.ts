// The desktop app's options: serve's flags' environment mirrors and settings file, without the variables that only mean something to `gatehouse serve` in a terminal.
import { resolveServeOptions, SERVE_ENV, type ServeOptions } from '../gateway/options/serve-options.ts';

/** Variables of `gatehouse serve` the app does not take: a temporary data dir for one terminal run, a line printed for a script. */
export const SERVE_ONLY_ENV = [SERVE_ENV.ephemeral, SERVE_ENV['ready-json']] as const;

/**
 * The app's options from `env` (as `gatehouse serve` reads its variables and the settings file of `appDir`), and the names of
 * the serve-only variables that were set and left out (the app says so on start), so an `GATEHOUSE_EPHEMERAL=1` left in a
 * shell neither half-applies (no secret store, no settings, on the user's own data) nor goes unnoticed.
 */
export function desktopOptions(env: NodeJS.ProcessEnv, appDir: string): { options: ServeOptions; ignored: string[] } {
  const ignored = SERVE_ONLY_ENV.filter((name) => env[name] !== undefined && env[name] !== '');
  const kept = { ...env };
  for (const name of ignored) delete kept[name];
  return { options: resolveServeOptions([], kept, appDir), ignored };
}

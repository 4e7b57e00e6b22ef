// The CLI's `serve` options: the gateway's option resolution with the CLI's default data dir.
import { resolveServeOptions, type ServeOptions } from '../gateway/options/serve-options.ts';

export { SERVE_OPTION_NAMES } from '../gateway/options/serve-options.ts';
import { defaultDataDir } from './paths.ts';

/** Reads `serve`'s flags and GATEHOUSE_* variables; `baseDir` (default: the user config folder) also holds the default settings file. */
export function parseServeOptions(args: string[], env: NodeJS.ProcessEnv, baseDir = defaultDataDir(env)): ServeOptions {
  return resolveServeOptions(args, env, baseDir);
}

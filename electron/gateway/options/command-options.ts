// The data dir and the secret store of the commands besides `serve` (`token`, `channel`, `price`, `console-secret`, `connect`, `cassette verify`), chosen as `serve` chooses them, so each command works on the database the server uses.
import { SECRET_MODES, type SecretMode } from '../secrets/select-store.ts';
import { savedForCommand } from './saved-settings.ts';
import { envValue, SERVE_ENV } from './serve-env.ts';
import { UsageError } from './usage-error.ts';

/**
 * The secret store of a command: `--secrets`, else `GATEHOUSE_SECRETS`, else the saved setting (see `savedForCommand`),
 * else `auto`. Throws UsageError for a value that is not a mode, or a broken settings file.
 */
export function resolveSecretMode(flag: string | undefined, env: NodeJS.ProcessEnv, baseDir: string): SecretMode {
  return secretModeOf(flag ?? envValue(env, SERVE_ENV.secrets) ?? savedForCommand(env, baseDir).secrets ?? 'auto');
}

/** `mode` as a secret store mode (`--secrets`, of serve or another command); a UsageError when it is none. */
export function secretModeOf(mode: string): SecretMode {
  if (!SECRET_MODES.includes(mode as SecretMode))
    throw new UsageError(`--secrets must be one of ${SECRET_MODES.join(', ')}; got "${mode}"`);
  return mode as SecretMode;
}

/**
 * The data dir of a command: `--data-dir`, else `GATEHOUSE_DATA_DIR`, else the saved setting (the data folder the
 * console's Settings page moved the server to), else `baseDir` (the default data dir, which holds the settings file).
 * Throws UsageError for a broken settings file.
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv, baseDir: string): string {
  return flag ?? envValue(env, SERVE_ENV['data-dir']) ?? savedForCommand(env, baseDir).dataDir ?? baseDir;
}

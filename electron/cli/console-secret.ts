// `gatehouse console-secret rotate`: replaces the data dir's kept console secret, so bookmarked console addresses stop working.
import { rotateConsoleSecret, selectSecretStore, SECRET_MODES, type SecretMode } from '../gateway/index.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import { defaultDataDir } from './paths.ts';
import type { Output } from './serve.ts';

const FLAGS = { 'data-dir': { type: 'string' }, secrets: { type: 'string' } } as const;

/** One line of the CLI's usage text. */
export const CONSOLE_SECRET_USAGE = '  gatehouse console-secret rotate [--data-dir DIR] [--secrets auto|keychain|file]';

export async function consoleSecret(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<void> {
  const { values, positionals } = parse(args, FLAGS);
  if (positionals.length !== 1 || positionals[0] !== 'rotate') throw new UsageError(`usage:\n${CONSOLE_SECRET_USAGE}`);
  const dataDir = values['data-dir'] ?? env['GATEHOUSE_DATA_DIR'] ?? defaultDataDir(env);
  const mode = values.secrets ?? env['GATEHOUSE_SECRETS'] ?? 'auto';
  if (!SECRET_MODES.includes(mode as SecretMode)) throw new UsageError(`--secrets must be one of ${SECRET_MODES.join(', ')}`);
  if (mode === 'none')
    throw new UsageError('with --secrets none the console address is made per run: there is no console secret to rotate');
  const { store, warning } = await selectSecretStore(mode as SecretMode, dataDir);
  if (warning) io.err(`warning: ${warning}`);
  await rotateConsoleSecret(store, dataDir);
  io.out(
    'rotated the console secret: old console addresses stop working when `gatehouse serve` next starts on this data dir (rotate from the console’s Settings page to stop them at once); the new address is printed at start',
  );
}

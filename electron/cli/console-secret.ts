// `gatehouse console-secret rotate`: keeps a new console secret for the data dir, so `serve` prints a bookmarkable address and older ones stop working.
import { rotateConsoleSecret, selectSecretStore } from '../gateway/index.ts';
import { resolveDataDir, resolveSecretMode } from '../gateway/options/command-options.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import { defaultDataDir } from './paths.ts';
import type { Output } from './serve.ts';

const FLAGS = { 'data-dir': { type: 'string' }, secrets: { type: 'string' } } as const;

/** One line of the CLI's usage text. */
export const CONSOLE_SECRET_USAGE = '  gatehouse console-secret rotate [--data-dir DIR] [--secrets auto|keychain|file]';

export async function consoleSecret(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<void> {
  const { values, positionals } = parse(args, FLAGS);
  if (positionals.length !== 1 || positionals[0] !== 'rotate') throw new UsageError(`usage:\n${CONSOLE_SECRET_USAGE}`);
  const dataDir = resolveDataDir(values['data-dir'], env, defaultDataDir(env));
  const mode = resolveSecretMode(values.secrets, env, defaultDataDir(env));
  if (mode === 'none')
    throw new UsageError('with --secrets none the console address is made per run: there is no console secret to rotate');
  const { store, warning } = await selectSecretStore(mode, dataDir);
  if (warning) io.err(`warning: ${warning}`);
  await rotateConsoleSecret(store, dataDir);
  io.out(
    'kept a new console secret: `gatehouse serve` prints the new console address when it next starts on this data dir, and older addresses stop working then (the console’s Settings page does this at once)',
  );
}

// `gatehouse fixtures validate PATH…`: loads fixture files and folders as `serve --fixtures` does, and reports every problem without serving.
import { FixturesError, loadFixtureFiles } from '../gateway/index.ts';
import { UsageError } from '../gateway/options/serve-options.ts';
import type { Output } from './serve.ts';

export const FIXTURES_USAGE = `usage:
  gatehouse fixtures validate PATH...   (JSON or YAML files, or folders of them; exit 1 naming each problem)`;

/** Runs the subcommand; answers the exit code (0: every fixture loads, 1: problems, each printed). */
export function fixtures(args: string[], io: Output): number {
  const [action, ...paths] = args;
  if (action !== 'validate' || paths.length === 0) throw new UsageError(FIXTURES_USAGE);
  try {
    const loaded = loadFixtureFiles(paths);
    io.out(`${loaded.length} fixture(s) valid in ${paths.join(', ')}`);
    return 0;
  } catch (error) {
    if (!(error instanceof FixturesError)) throw error;
    io.err(`gatehouse: ${error.message}`);
    return 1;
  }
}

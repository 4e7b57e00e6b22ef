// The saved settings file the commands read: where it is (`--settings-file`, `GATEHOUSE_SETTINGS_FILE`, or settings.json in the default data dir) and what it holds, a broken file a UsageError.
import path from 'node:path';
import type { ServerSettings } from '../../../shared/settings.ts';
import { readSettingsFile, SettingsFileError } from '../settings/settings-file.ts';
import { envValue, SERVE_ENV } from './serve-env.ts';
import { UsageError } from './usage-error.ts';

/** The settings file: the one given (`off`: none), else settings.json in `fallbackDataDir`. */
export function settingsFileOf(given: { value: string; from: string } | undefined, fallbackDataDir: string): string | null {
  if (!given) return path.join(fallbackDataDir, 'settings.json');
  if (given.value === 'off') return null;
  return path.resolve(given.value);
}

/** What `file` holds (nothing when it does not exist); a file that cannot be read as settings is a UsageError. */
export function readSaved(file: string): Partial<ServerSettings> {
  try {
    return readSettingsFile(file);
  } catch (error) {
    if (error instanceof SettingsFileError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The saved settings of a command besides `serve` (which also takes `--settings-file`): the file `GATEHOUSE_SETTINGS_FILE`
 * names, else the settings.json of `baseDir` (the default data dir).
 */
export function savedForCommand(env: NodeJS.ProcessEnv, baseDir: string): Partial<ServerSettings> {
  const name = SERVE_ENV['settings-file'];
  const named = envValue(env, name);
  const file = settingsFileOf(named === undefined ? undefined : { value: named, from: name }, baseDir);
  return file ? readSaved(file) : {};
}

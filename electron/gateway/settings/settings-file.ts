// The settings file (JSON): read with every problem named, written atomically and durably so a crash leaves the old or the new file whole.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateSettings, type ServerSettings } from '../../../shared/settings.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { PRIVATE_DIR_MODE } from '../private-files.ts';

/** The settings file exists but cannot be used; the message names the file and what to fix. */
export class SettingsFileError extends Error {
  override readonly name = 'SettingsFileError';
}

/** The saved settings; a missing file means none are saved. */
export function readSettingsFile(file: string): Partial<ServerSettings> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SettingsFileError(`Cannot read the settings file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsFileError(
      `The settings file ${file} is not valid JSON (${(error as Error).message}); fix it or delete it to use the defaults`,
    );
  }
  const checked = validateSettings(json);
  if (!checked.ok) {
    throw new SettingsFileError(
      `The settings file ${file} has a bad value: ${checked.problems.map((problem) => `${problem.key}: ${problem.message}`).join('; ')}`,
    );
  }
  return checked.value;
}

/**
 * Replaces the file's content atomically and durably at 0600. A missing folder is made at 0700; an existing one is
 * left as it is (the file may sit in a folder of the user's own, such as their home).
 */
export function writeSettingsFile(file: string, settings: Partial<ServerSettings>): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`);
}

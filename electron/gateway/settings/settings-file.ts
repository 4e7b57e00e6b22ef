// The settings file (JSON): read with every problem named, written atomically and durably so a crash leaves the old or the new file whole.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { validateSettings, type ServerSettings } from '../../../shared/settings.ts';

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
    throw new SettingsFileError(`The settings file ${file} is not valid JSON (${(error as Error).message}); fix it or delete it to use the defaults`);
  }
  const checked = validateSettings(json);
  if (!checked.ok) {
    throw new SettingsFileError(`The settings file ${file} has a bad value: ${checked.problems.map((problem) => `${problem.key}: ${problem.message}`).join('; ')}`);
  }
  return checked.value;
}

/** Replaces the file's content: write a temporary file, flush it, rename it over the old one, flush the folder. */
export function writeSettingsFile(file: string, settings: Partial<ServerSettings>): void {
  const folder = path.dirname(file);
  mkdirSync(folder, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(settings, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(folder);
}

/** Makes the rename itself durable; folders cannot be opened for fsync on Windows, where rename is already durable enough. */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// SecretStore in a 0600 JSON file in the data dir: an explicit fallback for machines without a keychain.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { tightenIfPresent } from '../private-files.ts';
import { withFileLock } from './file-lock.ts';
import type { SecretStore } from './secret-store.ts';

export const SECRETS_FILE = 'secrets.json';
/** The lock file beside it that every writer (server, `gatehouse token`) holds while it reads, merges and replaces the file. */
export const SECRETS_LOCK_FILE = 'secrets.json.lock';

/** The secrets file is not a JSON object of strings; the message names the file and what to do. */
export class SecretsFileError extends Error {
  override readonly name = 'SecretsFileError';
  readonly file: string;
  constructor(file: string, problem: string) {
    super(
      `The secrets file ${file} ${problem}. Fix it, or move it away (tokens whose secrets it held keep working ` +
        'but can no longer be revealed; Gatehouse then starts a new file).',
    );
    this.file = file;
  }
}

/**
 * Opens `<dataDir>/secrets.json`. Every change re-reads the file under the lock, applies itself and replaces the file
 * atomically (temporary file written at 0600, fsynced, renamed, folder fsynced), so concurrent writers lose nothing
 * and a crash leaves the old or the new file, never half of one. Throws SecretsFileError when the file is broken.
 */
export function openFileStore(dataDir: string): SecretStore {
  const file = path.join(dataDir, SECRETS_FILE);
  const lockFile = path.join(dataDir, SECRETS_LOCK_FILE);
  const read = (): Record<string, string> => readSecretsFile(file);
  const change = <T>(apply: (entries: Record<string, string>) => T | undefined): Promise<T | undefined> =>
    withFileLock(lockFile, () => {
      const entries = read();
      const result = apply(entries);
      if (result !== undefined) writeFileAtomic(file, JSON.stringify(entries, null, 2));
      return result;
    });
  tightenIfPresent(file);
  read(); // A broken file is refused when the store is opened, before any token is made whose secret it could not keep.
  return {
    kind: 'file',
    description: `a plain-text file readable only by you (${file})`,
    get: async (key) => read()[key] ?? null,
    set: async (key, value) => {
      await change((entries) => {
        entries[key] = value;
        return true;
      });
    },
    delete: async (key) =>
      (await change((entries) => {
        if (!(key in entries)) return undefined;
        delete entries[key];
        return true;
      })) ?? false,
  };
}

/** The file's entries ({} when it does not exist); a SecretsFileError when it is not a JSON object of strings. */
export function readSecretsFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new SecretsFileError(file, `is not valid JSON (${error.message})`);
    throw new SecretsFileError(file, `cannot be read (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SecretsFileError(file, 'is not a JSON object');
  const entries = parsed as Record<string, unknown>;
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== 'string') throw new SecretsFileError(file, `has a non-text value under "${key}"`);
  }
  return entries as Record<string, string>;
}

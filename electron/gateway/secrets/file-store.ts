// SecretStore in a 0600 JSON file in the data dir: an explicit fallback for machines without a keychain.
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SecretStore } from './secret-store.ts';

export const SECRETS_FILE = 'secrets.json';

/** Opens `<dataDir>/secrets.json`; every write replaces the file atomically with mode 0600. */
export function openFileStore(dataDir: string): SecretStore {
  const file = path.join(dataDir, SECRETS_FILE);
  const read = (): Record<string, string> =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const write = (entries: Record<string, string>) => {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(entries, null, 2), { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  };
  return {
    kind: 'file',
    description: `a plain-text file readable only by you (${file})`,
    get: async (key) => read()[key] ?? null,
    set: async (key, value) => write({ ...read(), [key]: value }),
    delete: async (key) => {
      const entries = read();
      if (!(key in entries)) return false;
      delete entries[key];
      write(entries);
      return true;
    },
  };
}

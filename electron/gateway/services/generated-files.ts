// Files the simulator generates (images, audio) kept under the data dir and served by unguessable capability URLs.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBase62 } from '../ids.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files.ts';

/** Stores `bytes` as `<dataDir>/files/<kind>/<random>.<ext>` and returns the file name. */
export function storeGeneratedFile(dataDir: string, kind: string, ext: string, bytes: Buffer): string {
  const dir = path.join(dataDir, 'files', kind);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const name = `${randomBase62(24)}.${ext}`;
  writeFileSync(path.join(dir, `${name}.tmp`), bytes, { mode: PRIVATE_FILE_MODE });
  renameSync(path.join(dir, `${name}.tmp`), path.join(dir, name));
  return name;
}

/** The path of a stored file, or undefined for a name that is not one (no path tricks). */
export function generatedFilePath(dataDir: string, kind: string, name: string): string | undefined {
  if (!/^[A-Za-z0-9]{24}\.[a-z0-9]+$/.test(name)) return undefined;
  const file = path.join(dataDir, 'files', kind, name);
  return existsSync(file) ? file : undefined;
}

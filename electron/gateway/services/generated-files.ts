// Files the simulator generates (images, 3D results) kept under the data dir and served by opaque, unguessable ids; links are never followed.
import { constants, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { randomBase62 } from '../ids.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.ts';

/** The opaque id of a stored file: 24 random base-62 characters and an extension. Nothing else is ever looked up. */
const FILE_ID = /^[A-Za-z0-9]{24}\.[a-z0-9]{1,8}$/;
/** Opens the final path component without following a symbolic link; where the platform has no such flag (Windows), an lstat refuses links first. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Stores `bytes` as `<dataDir>/files/<kind>/<random>.<ext>` and returns the file's id (its name). */
export function storeGeneratedFile(dataDir: string, kind: string, ext: string, bytes: Buffer): string {
  const dir = path.join(dataDir, 'files', kind);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const name = `${randomBase62(24)}.${ext}`;
  writeFileSync(path.join(dir, `${name}.tmp`), bytes, { mode: PRIVATE_FILE_MODE });
  renameSync(path.join(dir, `${name}.tmp`), path.join(dir, name));
  return name;
}

/** Removes every stored file of one kind (`<dataDir>/files/<kind>/`), for the testing API's data reset. */
export function removeGeneratedFiles(dataDir: string, kind: string): void {
  rmSync(path.join(dataDir, 'files', kind), { recursive: true, force: true });
}

/**
 * The bytes of a stored file, or undefined (the caller answers 404) for an id that is not one, a file that is missing,
 * or anything that is not a plain file the gateway wrote: a symbolic link (in the file's place, or as the `files` or
 * `<kind>` folder), a hard link, a folder or a device. The data dir itself may be a link the user made.
 */
export async function readGeneratedFile(dataDir: string, kind: string, id: string): Promise<Buffer | undefined> {
  if (!FILE_ID.test(id)) return undefined;
  try {
    const dir = path.join(await realpath(dataDir), 'files', kind);
    // The folders below the data dir must be the real ones: a link there would lead out of the data dir.
    if ((await realpath(dir)) !== dir) return undefined;
    const file = path.join(dir, id);
    if (NO_FOLLOW === 0 && (await lstat(file)).isSymbolicLink()) return undefined;
    const handle = await open(file, constants.O_RDONLY | NO_FOLLOW);
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.nlink !== 1) return undefined;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return undefined; // Missing (ENOENT), a link (ELOOP) or unreadable: the same answer, not found.
  }
}

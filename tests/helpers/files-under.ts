// Reads every file under a folder, at any depth, as it is now: a file another process or thread renames or deletes between the listing and the read (a cache's temporary file, a journal's) is left out, not an error.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Each regular file under `dir` that still exists once read, with its path relative to `dir` and its bytes. */
export function filesUnder(dir: string): { name: string; bytes: Buffer }[] {
  const found: { name: string; bytes: Buffer }[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      found.push({ name: path.relative(dir, file), bytes: readFileSync(file) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return found;
}

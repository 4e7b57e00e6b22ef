// `gatehouse cassette prune DIR [--yes]`: the cassettes the last replay run did not use (and the payload files only they name), listed, or removed with --yes.
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { CassetteCatalog, cassetteBlobs, readCassetteFile, replayRunOf, rfc3339 } from '../gateway/index.ts';
import { REPLAY_RUN_FILE } from '../../shared/cassette-admin.ts';
import type { Output } from './serve.ts';

/**
 * Removes (with `yes`, else only lists) every sound cassette the last replay run neither replayed nor recorded, and the
 * payload files no cassette kept names. Damaged files stay (`verify` names them). Exit 1 when no run is recorded or the
 * run used no cassette: pruning then would empty the folder.
 */
export async function prune(dir: string, yes: boolean, io: Output): Promise<number> {
  const run = replayRunOf(dir);
  if (!run) {
    io.err(
      `gatehouse: no replay run is recorded in ${dir} (${REPLAY_RUN_FILE}): replay your tests with gatehouse serve --replay ${dir} first`,
    );
    return 1;
  }
  if (run.files.size === 0) {
    io.err(
      `gatehouse: the last replay run (${rfc3339(run.startedAt)}) used no cassette: pruning would remove them all; replay your tests first`,
    );
    return 1;
  }
  const { listings } = await new CassetteCatalog(dir).all(run);
  const sound = listings.filter((listing) => listing.problem === null);
  const unused = sound.filter((listing) => !listing.replayed && !listing.recorded_in_run).map((listing) => listing.file);
  const dropped = new Set(unused);
  const keptBlobs = new Set<string>();
  const droppedBlobs = new Set<string>();
  for (const listing of sound) {
    const read = await readCassetteFile(dir, listing.file);
    if ('problem' in read) continue;
    for (const blob of cassetteBlobs(read.cassette)) (dropped.has(listing.file) ? droppedBlobs : keptBlobs).add(blob.file);
  }
  // A damaged cassette may name payload files too: a payload is removed only when no cassette that could be read names it.
  const blobs = [...droppedBlobs].filter((file) => !keptBlobs.has(file));
  for (const file of [...unused, ...blobs]) {
    if (yes)
      await unlink(path.join(dir, file)).catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? undefined : Promise.reject(error),
      );
    io.out(`${yes ? 'removed' : 'would remove'} ${file}`);
  }
  const what = `${unused.length} of ${sound.length} cassette(s) not used by the replay run of ${rfc3339(run.startedAt)}${blobs.length > 0 ? ` and ${blobs.length} payload file(s) only they name` : ''}`;
  io.err(yes ? `removed ${what}` : `${what}: run again with --yes to remove them`);
  return 0;
}

// `gatehouse cassette list|show|prune|verify`: what a record/replay folder holds, one cassette printed readably, the ones the last replay run did not use dropped, every file checked.
import path from 'node:path';
import { CassetteCatalog, readCassetteFile, replayRunOf, rfc3339 } from '../gateway/index.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import type { CassetteListing } from '../../shared/cassette-admin.ts';
import { describeCassette } from './cassette-show.ts';
import { prune } from './cassette-prune.ts';
import { verify } from './cassette-verify.ts';
import type { Output } from './serve.ts';

const FLAGS = {
  json: { type: 'boolean' },
  yes: { type: 'boolean' },
  'data-dir': { type: 'string' },
  secrets: { type: 'string' },
} as const;

export const CASSETTE_USAGE = `usage:
  gatehouse cassette list DIR [--json]
  gatehouse cassette show DIR FILE | show PATH [--json]
  gatehouse cassette prune DIR [--yes]   (without --yes: only says what it would remove)
  gatehouse cassette verify DIR [--data-dir DIR] [--secrets MODE]   (exit 1 naming each damaged file and each secret found)`;

/** Runs one `cassette` action; resolves with the exit code (1: a problem found, each printed). */
export async function cassette(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const { values, positionals } = parse(args, FLAGS);
  const [action, dir, file, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"\n\n${CASSETTE_USAGE}`);
  if (!dir) throw new UsageError(CASSETTE_USAGE);
  if (file !== undefined && action !== 'show') throw new UsageError(`unexpected argument "${file}"\n\n${CASSETTE_USAGE}`);
  switch (action) {
    case 'list':
      return list(dir, values.json ?? false, io);
    case 'show':
      return show(file === undefined ? path.dirname(dir) : dir, file ?? path.basename(dir), values.json ?? false, io);
    case 'prune':
      return prune(dir, values.yes ?? false, io);
    case 'verify':
      return verify(dir, { dataDir: values['data-dir'], secrets: values.secrets }, env, io);
    default:
      throw new UsageError(CASSETTE_USAGE);
  }
}

/** One tab-separated line per cassette, newest first; the folder and the last replay run on stderr. */
async function list(dir: string, json: boolean, io: Output): Promise<number> {
  const run = replayRunOf(dir);
  const { listings, files } = await new CassetteCatalog(dir).all(run);
  if (json) {
    io.out(JSON.stringify(listings, null, 2));
    return 0;
  }
  io.err(
    `${files} cassette(s) in ${dir}; ${run ? `last replay run ${rfc3339(run.startedAt)} used ${run.files.size}` : 'no replay run recorded'}`,
  );
  for (const listing of listings) io.out(lineOf(listing));
  return 0;
}

/** `file  recorded-at  kind  relay channel X | simulate  protocol  METHOD path  model  status  stream  replayed|unused`. */
function lineOf(listing: CassetteListing): string {
  if (listing.problem !== null) return [listing.file, 'damaged', listing.problem].join('\t');
  return [
    listing.file,
    listing.recorded_at === null ? '-' : rfc3339(listing.recorded_at),
    listing.kind,
    listing.mode === 'relay' ? `relay ${listing.channel ?? '?'}` : listing.mode,
    listing.protocol,
    `${listing.method} ${listing.path}`,
    listing.model ?? '-',
    listing.status === null ? '-' : String(listing.status),
    listing.stream ? 'stream' : 'whole',
    listing.replayed ? 'replayed' : listing.recorded_in_run ? 'recorded in the run' : 'unused',
  ].join('\t');
}

async function show(dir: string, file: string, json: boolean, io: Output): Promise<number> {
  const read = await readCassetteFile(dir, file);
  if ('problem' in read) {
    io.err(`gatehouse: ${read.problem}`);
    return 1;
  }
  if (json) io.out(JSON.stringify(read.cassette, null, 2));
  else for (const line of describeCassette(file, read.cassette)) io.out(line);
  return 0;
}

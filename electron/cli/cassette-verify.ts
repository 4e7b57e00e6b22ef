// `gatehouse cassette verify DIR`: every cassette reads whole (payload files present and unchanged) and no file of the folder holds a secret: a channel key of the secret store in any encoding, or a common key's shape.
import { existsSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  cassetteBlobs,
  CassetteStore,
  DATABASE_FILE,
  openChannelAdmin,
  readCassetteFile,
  selectSecretStore,
  type SecretMode,
} from '../gateway/index.ts';
import { resolveDataDir, resolveSecretMode } from '../gateway/options/command-options.ts';
import { UsageError } from '../gateway/options/serve-options.ts';
import { CassetteError, type CassetteBlob } from '../../shared/cassette.ts';
import { CASSETTE_SUFFIX } from '../../shared/cassette-names.ts';
import { defaultDataDir } from './paths.ts';
import { SecretFinder, type KnownSecret } from './secret-finder.ts';
import type { Output } from './serve.ts';

/** Checks the folder; exit 1 naming each file and its problem, 0 when every file passed. */
export async function verify(
  dir: string,
  flags: { dataDir: string | undefined; secrets: string | undefined },
  env: NodeJS.ProcessEnv,
  io: Output,
): Promise<number> {
  const known = await channelKeys(flags, env, io);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    io.err(`gatehouse: ${dir}: cannot be read (${(error as Error).message})`);
    return 1;
  }
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  const finder = new SecretFinder(known);
  const problems: string[] = [];
  // The store replay opens: a folder it refuses (too many cassettes) is a problem too.
  let store: CassetteStore | undefined;
  try {
    store = new CassetteStore(dir);
  } catch (error) {
    if (!(error instanceof CassetteError)) throw error;
    problems.push(error.message);
  }
  let cassettes = 0;
  for (const name of files) {
    if (name.endsWith(CASSETTE_SUFFIX)) {
      cassettes += 1;
      const read = await readCassetteFile(dir, name);
      if ('problem' in read) problems.push(read.problem);
      else if (store) for (const blob of cassetteBlobs(read.cassette)) problems.push(...(await blobProblems(store, name, blob)));
    }
    for (const found of await finder.scanFile(path.join(dir, name))) problems.push(`${name}: holds ${found.what}: ${found.hint}`);
  }
  for (const problem of problems) io.err(`gatehouse: ${problem}`);
  if (problems.length > 0) {
    io.err(`${problems.length} problem(s) in ${dir}`);
    return 1;
  }
  io.out(
    `${cassettes} cassette(s) and ${files.length - cassettes} other file(s) in ${dir}: every cassette reads, no secret found (${known.length} channel key(s) checked)`,
  );
  return 0;
}

/** The payload file `blob` of cassette `name`: present, of its size and hash (read as replay reads it). */
async function blobProblems(store: CassetteStore, name: string, blob: CassetteBlob): Promise<string[]> {
  try {
    for await (const chunk of store.blob(blob, name)) void chunk;
    return [];
  } catch (error) {
    if (error instanceof CassetteError) return [error.message];
    return [`${name}: its payload file ${blob.file} cannot be read (${(error as Error).message})`];
  }
}

/** The keys of the data dir's channels, read from its secret store; none (said on stderr) when the data dir has no database. */
async function channelKeys(
  flags: { dataDir: string | undefined; secrets: string | undefined },
  env: NodeJS.ProcessEnv,
  io: Output,
): Promise<KnownSecret[]> {
  let dataDir: string;
  let mode: SecretMode;
  try {
    dataDir = resolveDataDir(flags.dataDir, env, defaultDataDir(env));
    mode = resolveSecretMode(flags.secrets, env, defaultDataDir(env));
  } catch (error) {
    // The keys are an extra check: a broken settings file leaves the cassettes checked, and says why no key was.
    if (!(error instanceof UsageError)) throw error;
    io.err(`note: no channel key checked: ${error.message}`);
    return [];
  }
  if (!existsSync(path.join(dataDir, DATABASE_FILE))) {
    io.err(`note: no Gatehouse database in ${dataDir}: no channel key checked (give the data dir with --data-dir)`);
    return [];
  }
  const { store, warning } = await selectSecretStore(mode, dataDir);
  if (warning) io.err(`warning: ${warning}`);
  const admin = openChannelAdmin(dataDir, store);
  try {
    const known: KnownSecret[] = [];
    for (const channel of admin.channels.list().filter((item) => item.key_hint !== null)) {
      const key = await admin.channels.target(channel.id).then(
        ({ channel: target }) => target.key,
        () => null,
      );
      if (key) known.push({ owner: `the key of channel "${channel.name}"`, value: key });
      else io.err(`warning: the key of channel "${channel.name}" is not in the secret store (${store.description}): not checked`);
    }
    return known;
  } finally {
    admin.close();
  }
}

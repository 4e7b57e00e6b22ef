// The cassette folder on disk: cassettes listed by the hash in their names (no file parsed to list them), saved atomically with the next sequence of their request (or, re-recording, over the folder's earlier ones), blobs written streamed and named by their content hash.
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { constants as fsConstants, readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { CASSETTE_FORMAT, CassetteError, type Cassette, type CassetteBlob } from '../../../../shared/cassette.ts';
import { CASSETTE_HASH_CHARS, cassetteFileName, cassetteNameParts } from '../../../../shared/cassette-names.ts';
import { parseCassette } from '../../../../shared/cassette-reader.ts';
import { createFileAtomic, writeFileAtomic } from '../../atomic-write.ts';
import { randomBase62 } from '../../ids.ts';
import { PRIVATE_FILE_MODE } from '../../private-files.ts';
import type { CassetteDraft, SavedCassette } from '../types.ts';
import { cassetteBlobs } from './catalog.ts';
import { MAX_CASSETTE_BYTES, MAX_CASSETTES } from './limits.ts';

/** Opens a file for reading, failing (ELOOP) when it was swapped for a symbolic link after it was checked (where the OS can tell). */
const NO_FOLLOW = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0);

/** The highest sequence a cassette's file name can carry (six digits). */
const MAX_SEQUENCE = 999_999;

/** A cassette as the folder listing knows it: from its name alone. */
export interface CassetteListing {
  file: string;
  /** The first CASSETTE_HASH_CHARS of its request key. */
  hash: string;
  sequence: number;
}

/** How a store files what it records. */
export interface CassetteStoreOptions {
  /**
   * `--record-replace`: the first cassette the store files for a request replaces the ones the folder held for it (every
   * sequence, and the payload files no other cassette names); its later recordings of that request take sequences 2, 3….
   */
  replace?: boolean;
}

/** The prompt words a cassette's file name shows: the request's first user text, input or prompt. */
export type PromptOf = (draft: CassetteDraft) => string | undefined;

export class CassetteStore {
  readonly dir: string;
  /** Hash → the cassettes of that request key, in sequence order. */
  private readonly byHash = new Map<string, CassetteListing[]>();
  private count = 0;
  private readonly listeners: ((listing: CassetteListing, cassette: Cassette) => void)[] = [];
  /** Saves run one at a time, so two recordings of one request never take the same sequence. */
  private saving: Promise<unknown> = Promise.resolve();
  private readonly replace: boolean;
  /** Under `replace`: the hashes of the requests this store recorded (their earlier cassettes are gone). */
  private readonly renewed = new Set<string>();
  /** Payload file → the cassettes naming it; read once, at the first replaced cassette that named one, then kept up to date. */
  private blobOwners: Map<string, Set<string>> | undefined;
  /** Under `replace`: the payload files this store saved (a recording under way names one before its cassette is filed). */
  private readonly savedBlobs = new Set<string>();

  /** Opens `dir` (made when missing) and lists its cassettes by name; more than MAX_CASSETTES is a CassetteError. */
  constructor(dir: string, options: CassetteStoreOptions = {}) {
    this.dir = path.resolve(dir);
    this.replace = options.replace === true;
    mkdirSync(this.dir, { recursive: true });
    for (const file of readdirSync(this.dir).sort()) {
      const parts = cassetteNameParts(file);
      if (parts) this.add({ file, ...parts });
    }
    if (this.count > MAX_CASSETTES)
      throw new CassetteError(
        this.dir,
        '',
        `holds ${this.count} cassettes, over the ${MAX_CASSETTES} one folder may (split it, or prune it)`,
      );
  }

  /** Every cassette, by file name. */
  list(): CassetteListing[] {
    return [...this.byHash.values()].flat().sort((a, b) => (a.file < b.file ? -1 : 1));
  }

  /** The cassettes whose name carries `key`'s hash, in sequence order. */
  ofKey(key: string): readonly CassetteListing[] {
    return this.byHash.get(key.slice(0, CASSETTE_HASH_CHARS)) ?? [];
  }

  /** Reads and checks one cassette (at most MAX_CASSETTE_BYTES); a damaged one is a CassetteError naming it. */
  async read(file: string): Promise<Cassette> {
    return parseCassette(await readFile(this.checkedPath(file), { encoding: 'utf8', flag: NO_FOLLOW }), file);
  }

  /** `read`, blocking: for the one pass over the folder that `--replay-ignore` needs at start. */
  readSync(file: string): Cassette {
    return parseCassette(readFileSync(this.checkedPath(file), { encoding: 'utf8', flag: NO_FOLLOW }), file);
  }

  /** Calls `listener` after each cassette saved (a replay that records its misses sees them at once). */
  onSaved(listener: (listing: CassetteListing, cassette: Cassette) => void): void {
    this.listeners.push(listener);
  }

  private checkedPath(file: string): string {
    const full = path.join(this.dir, file);
    const size = plainFileSize(full, file, '');
    if (size === undefined) throw new CassetteError(file, '', 'is missing (removed since the folder was read?)');
    if (size > MAX_CASSETTE_BYTES)
      throw new CassetteError(file, '', `is ${size} bytes, over the ${MAX_CASSETTE_BYTES} a cassette may have (big bodies go to blobs)`);
    return full;
  }

  /** Writes `data` beside the cassettes as `blob-<sha256>.bin` (streamed through a temporary file; an identical blob is kept once). */
  async saveBlob(data: Uint8Array | AsyncIterable<Uint8Array>): Promise<CassetteBlob> {
    const temporary = path.join(this.dir, `.blob-${process.pid}-${randomBase62(8)}.tmp`);
    const hash = createHash('sha256');
    let bytes = 0;
    const out = createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE_MODE });
    try {
      const pieces = data instanceof Uint8Array ? [data] : data;
      for await (const piece of pieces) {
        hash.update(piece);
        bytes += piece.length;
        if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
      out.end();
      await finished(out);
      const sha256 = hash.digest('hex');
      const file = `blob-${sha256.slice(0, 32)}.bin`;
      const target = path.join(this.dir, file);
      if (existsSync(target) && statSync(target).size === bytes) rmSync(temporary);
      else renameSync(temporary, target);
      if (this.replace) this.savedBlobs.add(file);
      return { file, bytes, sha256 };
    } catch (error) {
      out.destroy();
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  /** Throws a CassetteError naming `owner` when `blob` is missing or of another size than recorded (its hash is checked as it streams). */
  checkBlob(blob: CassetteBlob, owner: string): void {
    const size = plainFileSize(path.join(this.dir, blob.file), owner, 'blob');
    if (size === undefined) throw new CassetteError(owner, 'blob', `names ${blob.file}, which is missing`);
    if (size !== blob.bytes) throw new CassetteError(owner, 'blob', `${blob.file} has ${size} bytes, not the ${blob.bytes} recorded`);
  }

  /** A blob's bytes, streamed and checked: a missing, cut or changed blob throws a CassetteError naming it (`owner` is the cassette). */
  async *blob(blob: CassetteBlob, owner = blob.file): AsyncGenerator<Uint8Array> {
    const full = path.join(this.dir, blob.file);
    if (plainFileSize(full, owner, 'blob') === undefined) throw new CassetteError(owner, 'blob', `names ${blob.file}, which is missing`);
    const hash = createHash('sha256');
    let bytes = 0;
    const handle = await open(full, NO_FOLLOW);
    for await (const chunk of handle.createReadStream({ highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > blob.bytes) throw new CassetteError(owner, 'blob', `${blob.file} is longer than the ${blob.bytes} bytes recorded`);
      hash.update(chunk);
      yield chunk;
    }
    if (bytes !== blob.bytes || hash.digest('hex') !== blob.sha256)
      throw new CassetteError(owner, 'blob', `${blob.file} is not the blob recorded (its size or hash changed)`);
  }

  /** Files `draft` as the next sequence of its request key, atomically (a crash leaves no half cassette). */
  save(draft: CassetteDraft, prompt?: string): Promise<SavedCassette> {
    const run = this.saving.then(() => this.saveNow(draft, prompt));
    this.saving = run.catch(() => undefined);
    return run;
  }

  private saveNow(draft: CassetteDraft, prompt: string | undefined): SavedCassette {
    const hash = draft.request.key.slice(0, CASSETTE_HASH_CHARS);
    if (this.replace && !this.renewed.has(hash)) return this.saveOver(draft, prompt, hash);
    this.refuseWhenFull(this.count);
    const key = draft.request.key;
    for (let sequence = (this.ofKey(key).at(-1)?.sequence ?? 0) + 1; ; sequence += 1) {
      const file = cassetteFileName(key, draft.request.model, prompt, sequence);
      const cassette = { format: CASSETTE_FORMAT, ...draft, sequence } as Cassette;
      try {
        // Readable and diffable: one field a line, keys in the order written. Never over a file already there.
        createFileAtomic(path.join(this.dir, file), `${JSON.stringify(cassette, null, 2)}\n`);
      } catch (error) {
        // Another writer (a second gateway recording into this folder) took this sequence since the folder was listed.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || sequence >= MAX_SEQUENCE) throw error;
        if (!this.ofKey(key).some((listing) => listing.file === file)) this.add({ file, hash, sequence });
        continue;
      }
      return this.filed({ file, hash, sequence }, cassette);
    }
  }

  /**
   * The first recording of a request under `replace`: filed as sequence 1 over the folder's file of that name (atomically: a
   * crash leaves the old cassette or the new one), then the request's other earlier cassettes and the payload files that
   * only they named are removed.
   */
  private saveOver(draft: CassetteDraft, prompt: string | undefined, hash: string): SavedCassette {
    const earlier = [...this.ofKey(draft.request.key)];
    this.refuseWhenFull(this.count - earlier.length);
    const file = cassetteFileName(draft.request.key, draft.request.model, prompt, 1);
    const cassette = { format: CASSETTE_FORMAT, ...draft, sequence: 1 } as Cassette;
    const earlierBlobs = earlier.flatMap((listing) => this.blobsOf(listing.file));
    if (earlierBlobs.length > 0) this.blobOwners ??= this.readBlobOwners();
    writeFileAtomic(path.join(this.dir, file), `${JSON.stringify(cassette, null, 2)}\n`);
    this.renewed.add(hash);
    for (const listing of earlier) {
      if (listing.file !== file) rmSync(path.join(this.dir, listing.file), { force: true });
      this.forget(listing);
    }
    const saved = this.filed({ file, hash, sequence: 1 }, cassette);
    // A payload this run saved stays: a recording still under way may name it (identical bytes are kept once).
    for (const blob of earlierBlobs) {
      if ((this.blobOwners?.get(blob)?.size ?? 0) === 0 && !this.savedBlobs.has(blob)) rmSync(path.join(this.dir, blob), { force: true });
    }
    return saved;
  }

  /** A CassetteError when a folder holding `count` cassettes may take no more (MAX_CASSETTES). */
  private refuseWhenFull(count: number): void {
    if (count >= MAX_CASSETTES)
      throw new CassetteError(
        this.dir,
        '',
        `holds ${this.count} cassettes, the most one folder may (${MAX_CASSETTES}); prune it or record elsewhere`,
      );
  }

  /** The payload files a cassette names; none for a damaged one (its files are left alone). */
  private blobsOf(file: string): string[] {
    try {
      return cassetteBlobs(this.readSync(file)).map((blob) => blob.file);
    } catch {
      return [];
    }
  }

  /** Which cassettes of the folder name each payload file (damaged ones name none, as `gatehouse cassette prune` reads them). */
  private readBlobOwners(): Map<string, Set<string>> {
    const owners = new Map<string, Set<string>>();
    for (const listing of this.list()) for (const blob of this.blobsOf(listing.file)) this.own(owners, blob, listing.file);
    return owners;
  }

  private own(owners: Map<string, Set<string>>, blob: string, file: string): void {
    const named = owners.get(blob) ?? new Set<string>();
    named.add(file);
    owners.set(blob, named);
  }

  private forget(listing: CassetteListing): void {
    const list = this.byHash.get(listing.hash)?.filter((other) => other.file !== listing.file) ?? [];
    if (list.length > 0) this.byHash.set(listing.hash, list);
    else this.byHash.delete(listing.hash);
    this.count -= 1;
    if (this.blobOwners) for (const named of this.blobOwners.values()) named.delete(listing.file);
  }

  private filed(listing: CassetteListing, cassette: Cassette): SavedCassette {
    const { file, sequence } = listing;
    this.add(listing);
    if (this.blobOwners) for (const blob of cassetteBlobs(cassette)) this.own(this.blobOwners, blob.file, file);
    for (const listener of this.listeners) listener(listing, cassette);
    return { file, sequence };
  }

  private add(listing: CassetteListing): void {
    const list = this.byHash.get(listing.hash) ?? [];
    list.push(listing);
    list.sort((a, b) => a.sequence - b.sequence);
    this.byHash.set(listing.hash, list);
    this.count += 1;
  }
}

/**
 * The size of `full`, or undefined when it is missing. A symbolic link or anything but a plain file is a CassetteError naming
 * `owner`: a cassette folder never leads a replay to read a file outside it.
 */
function plainFileSize(full: string, owner: string, field: string): number | undefined {
  let stats;
  try {
    stats = lstatSync(full);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink())
    throw new CassetteError(owner, field, `${path.basename(full)} is a symbolic link (only plain files in the folder are read)`);
  if (!stats.isFile()) throw new CassetteError(owner, field, `${path.basename(full)} is not a plain file`);
  return stats.size;
}

// The reading half of the cassette store: the next cassette of a request key (sequences in order, counted per gateway), decided synchronously from the folder's names (or, with --replay-ignore, from one pass over the folder at start), read only when played.
import { CassetteError, type Cassette, type CassetteKind, type CassetteRequest } from '../../../../shared/cassette.ts';
import type { CassetteShelf, FoundCassette, RecordedCall } from '../types.ts';
import { differences } from './closest.ts';
import { ignoring, keyOf, normalRequest } from './normal.ts';
import type { CassetteListing, CassetteStore } from './store.ts';

/** The recorded request closest to a call that missed. */
export interface Closest {
  file: string;
  /** The normal form it was recorded with (under the replay's ignore list). */
  normal: unknown;
  /** Where it differs from the call's, in walk order. */
  differences: string[];
}

export class StoreShelf implements CassetteShelf {
  private readonly store: CassetteStore;
  private readonly ignore: readonly string[];
  /** Per request key: how many of its cassettes were played. */
  private readonly played = new Map<string, number>();
  /** With an ignore list: each cassette's key recomputed under it (the names carry the key without it). */
  private readonly rekeyed: Map<string, CassetteListing[]> | undefined;
  /** The normal forms read so far for `closest` (a miss under `error` reads the folder once). */
  private normals: Map<string, unknown> | undefined;

  /** Reads every cassette once when `ignore` is not empty; a damaged one is a CassetteError naming it (the start fails). */
  constructor(store: CassetteStore, ignore: readonly string[] = []) {
    this.store = store;
    this.ignore = ignore;
    if (ignore.length > 0) {
      this.rekeyed = new Map();
      for (const listing of store.list()) this.file(listing, store.readSync(listing.file));
    }
    store.onSaved((listing, cassette) => {
      if (this.rekeyed) this.file(listing, cassette);
      this.normals?.set(listing.file, ignoring(cassette.request.normal, this.ignore));
    });
  }

  requestOf(call: RecordedCall): CassetteRequest {
    return normalRequest(call, this.ignore);
  }

  next(key: string, kind: CassetteKind): FoundCassette | undefined {
    return this.candidates(key, kind)[0];
  }

  candidates(key: string, kind: CassetteKind): FoundCassette[] {
    const recorded = this.rekeyed ? (this.rekeyed.get(key) ?? []) : this.store.ofKey(key);
    if (recorded.length === 0) return [];
    const played = this.played.get(key) ?? 0;
    this.played.set(key, played + 1);
    // Past the end of a sequence the last recording answers again (a retry loop does not turn into misses).
    const next = recorded[Math.min(played, recorded.length - 1)]!;
    return [next, ...recorded.filter((listing) => listing !== next)].map((listing) => this.found(listing, kind));
  }

  private found(listing: CassetteListing, kind: CassetteKind): FoundCassette {
    const checked = (cassette: Cassette) => {
      if (cassette.kind !== kind) throw new CassetteError(listing.file, 'kind', `is ${cassette.kind}, but a ${kind} cassette was expected`);
      const body = cassette.kind === 'http' ? cassette.response.body : undefined;
      if (body && 'blob' in body) this.store.checkBlob(body.blob, listing.file);
      return cassette;
    };
    return {
      file: listing.file,
      sequence: listing.sequence,
      load: async () => checked(await this.store.read(listing.file)),
      loadSync: () => checked(this.store.readSync(listing.file)),
    };
  }

  blob(blob: Parameters<CassetteShelf['blob']>[0], owner?: string): AsyncIterable<Uint8Array> {
    return this.store.blob(blob, owner);
  }

  /** Starts every sequence from its first recording again (the testing API's reset). */
  rewind(): void {
    this.played.clear();
  }

  /**
   * The recorded request of `kind`s most like `request` (fewest differing fields; by name on a tie), or undefined in an empty
   * folder. Reads every cassette once (then keeps their normal forms); a damaged one is skipped here (it is refused when played).
   */
  closest(request: CassetteRequest): Closest | undefined {
    if (!this.normals) {
      this.normals = new Map();
      for (const listing of this.store.list()) {
        try {
          this.normals.set(listing.file, ignoring(this.store.readSync(listing.file).request.normal, this.ignore));
        } catch {
          // named when played
        }
      }
    }
    let best: Closest | undefined;
    for (const [file, normal] of this.normals) {
      const found = differences(normal, request.normal);
      if (!best || found.length < best.differences.length) best = { file, normal, differences: found };
    }
    return best;
  }

  private file(listing: CassetteListing, cassette: Cassette): void {
    const key = keyOf(ignoring(cassette.request.normal, this.ignore));
    const list = this.rekeyed!.get(key) ?? [];
    list.push(listing);
    list.sort((a, b) => a.sequence - b.sequence);
    this.rekeyed!.set(key, list);
  }
}

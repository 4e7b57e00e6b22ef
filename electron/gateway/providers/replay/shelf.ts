// The reading half of the cassette store: the next cassette of a request key (sequences in order, counted per gateway), decided synchronously from the folder's names, read only when played.
import { CassetteError, type CassetteKind, type CassetteRequest } from '../../../../shared/cassette.ts';
import type { CassetteShelf, FoundCassette, RecordedCall } from '../types.ts';
import { normalRequest } from './normal.ts';
import type { CassetteStore } from './store.ts';

export class StoreShelf implements CassetteShelf {
  private readonly store: CassetteStore;
  private readonly ignore: readonly string[];
  /** Per request key: how many of its cassettes were played. */
  private readonly played = new Map<string, number>();
  constructor(store: CassetteStore, ignore: readonly string[] = []) {
    this.store = store;
    this.ignore = ignore;
  }

  requestOf(call: RecordedCall): CassetteRequest {
    return normalRequest(call, this.ignore);
  }

  next(key: string, kind: CassetteKind): FoundCassette | undefined {
    const recorded = this.store.ofKey(key);
    if (recorded.length === 0) return undefined;
    const played = this.played.get(key) ?? 0;
    this.played.set(key, played + 1);
    // Past the end of a sequence the last recording answers again (a retry loop does not turn into misses).
    const listing = recorded[Math.min(played, recorded.length - 1)]!;
    return {
      file: listing.file,
      sequence: listing.sequence,
      load: async () => {
        const cassette = await this.store.read(listing.file);
        if (cassette.kind !== kind)
          throw new CassetteError(listing.file, 'kind', `is ${cassette.kind}, but a ${kind} cassette was expected`);
        return cassette;
      },
    };
  }

  blob: CassetteShelf['blob'] = (blob) => this.store.blob(blob);

  /** Starts every sequence from its first recording again (the testing API's reset). */
  rewind(): void {
    this.played.clear();
  }
}

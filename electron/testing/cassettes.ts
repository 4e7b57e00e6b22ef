// The record/replay folder as a test reads it through the admin API: every cassette, or those the replay run used or did not.
import type { CassetteFolder, CassetteListing } from '../../shared/cassette-admin.ts';
import type { AdminCall } from './admin-client.ts';

/** Cassettes the admin API lists per page (its most). */
const CASSETTES_PAGE_SIZE = 100;

/** Which cassettes `cassettes.list` answers. */
export interface CassetteFilter {
  /** Part of the file name, model, path or channel, any case. */
  text?: string;
  /** `replayed`: only those this replay run answered a call from; `unused`: only those it has not (nor recorded). */
  replayed?: 'replayed' | 'unused';
}

/** The record/replay folder of a `startGatehouse({ record | replay })` gateway. */
export interface CassettesApi {
  /** Every cassette the filter matches, newest recording first (each with `replayed`, `channel`, `model`, `problem`…). */
  list(filter?: CassetteFilter): Promise<CassetteListing[]>;
  /** The folder, what the gateway does with it and its replay run, with the first page of cassettes. */
  folder(): Promise<CassetteFolder>;
}

export function cassettesApi(admin: AdminCall): CassettesApi {
  const page = (filter: CassetteFilter, p: number) =>
    admin<CassetteFolder>('GET', '/cassettes', { query: { q: filter.text, replayed: filter.replayed, p, page_size: CASSETTES_PAGE_SIZE } });
  return {
    async list(filter = {}) {
      const items: CassetteListing[] = [];
      for (let p = 1; ; p++) {
        const answer = await page(filter, p);
        items.push(...answer.items);
        if (answer.items.length < CASSETTES_PAGE_SIZE || items.length >= answer.total) return items;
      }
    },
    folder: () => page({}, 1),
  };
}

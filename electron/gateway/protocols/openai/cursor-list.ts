// The OpenAI cursor lists: the `after`, `limit` and `order` query of a list call checked, and the `{object: "list", data, first_id, last_id, has_more}` page rendered.
import { invalid } from '../../errors.ts';

/** A list call's page, checked. */
export interface ListQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

/** The defaults and bounds of one list endpoint, as on the real API. */
export interface ListRules {
  defaultLimit: number;
  maxLimit: number;
  defaultOrder: 'asc' | 'desc';
}

/** `after`, `limit` (1 to the endpoint's maximum) and `order` of a query string, or a 400 naming the bad one. */
export function parseListQuery(query: unknown, rules: ListRules): ListQuery {
  const fields = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const after = fields['after'];
  const limitText = fields['limit'];
  const order = fields['order'] ?? rules.defaultOrder;
  let limit = rules.defaultLimit;
  if (limitText !== undefined) {
    limit = typeof limitText === 'string' && /^\d{1,9}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= rules.maxLimit)) {
      throw invalid(`Invalid 'limit': expected an integer from 1 to ${rules.maxLimit}.`, 'limit');
    }
  }
  if (order !== 'asc' && order !== 'desc') throw invalid("Invalid 'order': expected 'asc' or 'desc'.", 'order');
  if (after !== undefined && typeof after !== 'string') throw invalid("Invalid 'after': expected one id.", 'after');
  return { ...(after !== undefined && after !== '' && { after }), limit, order };
}

/** One page of a list in the API's shape. */
export function renderList<T extends { id: string }>(data: readonly T[], hasMore: boolean) {
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}

/** A page of an in-memory list of items with ids, in their stored order (`asc`) or reversed, after the item `after`. */
export function pageOf<T extends { id: unknown }>(items: readonly T[], query: ListQuery): { data: T[]; hasMore: boolean } {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  const start = query.after === undefined ? 0 : ordered.findIndex((item) => item.id === query.after) + 1;
  if (query.after !== undefined && start === 0) return { data: [], hasMore: false };
  const data = ordered.slice(start, start + query.limit);
  return { data, hasMore: start + query.limit < ordered.length };
}

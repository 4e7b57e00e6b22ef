// Normalises the `p` and `page_size` query parameters of every paged list into one consistent answer.
import { PAGE_DEFAULT, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../../shared/portrait.ts';

/** The page a list request asks for, after normalisation. */
export interface Paging {
  page: number;
  pageSize: number;
  offset: number;
}

/**
 * The rule, documented in docs/portrait-library.md: a missing, empty or non-integer value takes its default;
 * `p` below 1 becomes 1; `page_size` below 1 takes the default 20 and above 100 becomes 100.
 * The response's `page` and `page_size` always state what was applied.
 */
export function normalizePaging(p: unknown, pageSize: unknown): Paging {
  const page = Math.max(1, integerOr(p, PAGE_DEFAULT));
  const requestedSize = integerOr(pageSize, PAGE_SIZE_DEFAULT);
  const size = requestedSize < 1 ? PAGE_SIZE_DEFAULT : Math.min(PAGE_SIZE_MAX, requestedSize);
  return { page, pageSize: size, offset: (page - 1) * size };
}

function integerOr(value: unknown, fallback: number): number {
  if (typeof value !== 'string' || !/^\s*[+-]?\d+\s*$/.test(value)) return fallback;
  const parsed = Number.parseInt(value, 10);
  return Number.isSafeInteger(parsed) ? parsed : fallback;
}

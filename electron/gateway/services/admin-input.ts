// Validates the admin API's own inputs (token creation and edits, account names, journal filters, asset list options); portrait bodies reuse portrait-input.
import { MAX_TEST_ID_CHARS } from '../../../shared/test-ids.ts';
import { ASSET_SORTS, type AssetSort } from '../../../shared/admin-api.ts';
import { TOKEN_MODELS_MAX, type TokenCreateBody, type TokenUpdateBody } from '../../../shared/admin-tokens.ts';
import { JOURNAL_FILTER_TEXT_LIMIT, JOURNAL_PROTOCOLS, type JournalProtocol, type JournalQuery } from '../../../shared/journal.ts';
import { FIELD_LIMITS, tooLongMessage } from '../../../shared/field-limits.ts';
import { invalid } from '../errors.ts';
import type { AssetListFilter } from './portrait-input.ts';
import type { CreateTokenInput, TokenEdit } from './tokens.ts';

/** Validates a token creation body; `now` rejects an expiry in the past. */
export function parseTokenCreate(body: unknown, now: number): CreateTokenInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('Request body must be a JSON object');
  const fields = body as Partial<Record<keyof TokenCreateBody, unknown>>;
  const account = typeof fields.account === 'string' ? fields.account.trim() : '';
  if (account === '') throw invalid('account must not be empty: name the account the token acts for', 'account');
  if (account.length > FIELD_LIMITS.accountName) throw invalid(tooLongMessage('account', FIELD_LIMITS.accountName), 'account');
  const input: CreateTokenInput = { account };
  if (fields.name !== undefined && fields.name !== null && fields.name !== '') {
    if (typeof fields.name !== 'string' || fields.name.length > FIELD_LIMITS.tokenName) {
      throw invalid(`name must be a string of at most ${FIELD_LIMITS.tokenName} characters`, 'name');
    }
    input.name = fields.name;
  }
  if (fields.expires_at !== undefined && fields.expires_at !== null) input.expiresAt = expiryOf(fields.expires_at, now);
  if (fields.quota !== undefined && fields.quota !== null) input.quota = quotaOf(fields.quota);
  if (fields.models !== undefined && fields.models !== null) input.models = modelsOf(fields.models);
  return input;
}

/** Validates a token edit body: each field present is changed; null clears the expiry, the quota or the model limit. */
export function parseTokenUpdate(body: unknown, now: number): TokenEdit {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('Request body must be a JSON object');
  const fields = body as Partial<Record<keyof TokenUpdateBody, unknown>>;
  const edit: TokenEdit = {};
  if (fields.expires_at !== undefined) edit.expiresAt = fields.expires_at === null ? null : expiryOf(fields.expires_at, now);
  if (fields.quota !== undefined) edit.quota = fields.quota === null ? null : quotaOf(fields.quota);
  if (fields.models !== undefined) edit.models = fields.models === null ? null : modelsOf(fields.models);
  return edit;
}

function expiryOf(value: unknown, now: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw invalid('expires_at must be a time in epoch milliseconds', 'expires_at');
  if (value <= now) throw invalid('expires_at must be in the future', 'expires_at');
  return value;
}

function quotaOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalid('quota must be a non-negative amount, e.g. 5 or 2.50', 'quota');
  }
  return value;
}

/** A model limit: 1 to TOKEN_MODELS_MAX distinct non-empty names, each within the model name limit. */
function modelsOf(value: unknown): string[] {
  const message = `models must be a list of 1 to ${TOKEN_MODELS_MAX} model names of at most ${FIELD_LIMITS.model} characters (null: any model)`;
  if (!Array.isArray(value) || value.length === 0 || value.length > TOKEN_MODELS_MAX) throw invalid(message, 'models');
  const names = value.map((item: unknown) => (typeof item === 'string' ? item.trim() : ''));
  if (names.some((name) => name === '' || name.length > FIELD_LIMITS.model)) throw invalid(message, 'models');
  return [...new Set(names)];
}

/** Validates the journal list's filters; empty values mean "any". */
export function parseJournalFilter(query: Record<string, unknown>): Omit<JournalQuery, 'p' | 'page_size'> {
  const text = (name: string) => (typeof query[name] === 'string' && query[name] !== '' ? (query[name] as string) : undefined);
  const filter: Omit<JournalQuery, 'p' | 'page_size'> = {};
  const outcome = text('outcome');
  if (outcome !== undefined) {
    if (outcome !== 'ok' && outcome !== 'error') throw invalid('outcome must be ok or error', 'outcome');
    filter.outcome = outcome;
  }
  const protocol = text('protocol');
  if (protocol !== undefined) {
    if (!(JOURNAL_PROTOCOLS as readonly string[]).includes(protocol))
      throw invalid(`protocol must be one of ${JOURNAL_PROTOCOLS.join(', ')}`, 'protocol');
    filter.protocol = protocol as JournalProtocol;
  }
  const model = text('model');
  if (model !== undefined) filter.model = model.slice(0, JOURNAL_FILTER_TEXT_LIMIT);
  const account = text('account');
  if (account !== undefined) filter.account = account.slice(0, JOURNAL_FILTER_TEXT_LIMIT);
  const path = text('path');
  if (path !== undefined) filter.path = path.slice(0, JOURNAL_FILTER_TEXT_LIMIT);
  const q = text('q');
  if (q !== undefined) filter.q = q.slice(0, JOURNAL_FILTER_TEXT_LIMIT);
  const testId = text('test_id');
  if (testId !== undefined) filter.test_id = testId.slice(0, MAX_TEST_ID_CHARS);
  const requestId = text('request_id');
  if (requestId !== undefined) filter.request_id = requestId.slice(0, JOURNAL_FILTER_TEXT_LIMIT);
  for (const name of ['from', 'to'] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const time = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(time)) throw invalid(`${name} must be a time in epoch milliseconds`, name);
    filter[name] = time;
  }
  return filter;
}

/** The admin API's own asset list options: `name` (part of it, cut at the name limit) and `sort`. */
export function parseAssetAdminFilter(query: Record<string, unknown>): Pick<AssetListFilter, 'nameContains' | 'sort'> {
  const filter: Pick<AssetListFilter, 'nameContains' | 'sort'> = {};
  const name = query['name'];
  if (typeof name === 'string' && name.trim() !== '') filter.nameContains = name.trim().slice(0, FIELD_LIMITS.assetName);
  const sort = query['sort'];
  if (typeof sort === 'string' && sort !== '') {
    if (!(ASSET_SORTS as readonly string[]).includes(sort)) throw invalid(`sort must be one of ${ASSET_SORTS.join(', ')}`, 'sort');
    filter.sort = sort as AssetSort;
  }
  return filter;
}

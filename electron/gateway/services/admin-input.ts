// Validates the admin API's own inputs (token creation, account names, journal filters); portrait bodies reuse portrait-input.
import type { TokenCreateBody } from '../../../shared/admin-api.ts';
import { JOURNAL_FILTER_TEXT_LIMIT, JOURNAL_PROTOCOLS, type JournalProtocol, type JournalQuery } from '../../../shared/journal.ts';
import { FIELD_LIMITS, tooLongMessage } from '../../../shared/field-limits.ts';
import { invalid } from '../errors.ts';
import type { CreateTokenInput } from './tokens.ts';

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
  if (fields.expires_at !== undefined && fields.expires_at !== null) {
    if (typeof fields.expires_at !== 'number' || !Number.isSafeInteger(fields.expires_at)) {
      throw invalid('expires_at must be a time in epoch milliseconds', 'expires_at');
    }
    if (fields.expires_at <= now) throw invalid('expires_at must be in the future', 'expires_at');
    input.expiresAt = fields.expires_at;
  }
  if (fields.quota !== undefined && fields.quota !== null) {
    if (typeof fields.quota !== 'number' || !Number.isFinite(fields.quota) || fields.quota < 0) {
      throw invalid('quota must be a non-negative amount, e.g. 5 or 2.50', 'quota');
    }
    input.quota = fields.quota;
  }
  return input;
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
  return filter;
}

// Checks a price change: the model name and each price, every failure a 400 naming the field.
import { FIELD_LIMITS } from '../../../shared/field-limits.ts';
import { PRICE_DECIMALS, PRICE_MAX, type PriceInput } from '../../../shared/prices.ts';
import { invalid } from '../errors.ts';

/** A model name as the table keys it: 1 to FIELD_LIMITS.model printable characters, no spaces around. */
export function checkPriceModel(model: unknown): string {
  if (typeof model !== 'string' || model.trim() === '') throw invalid('model must name a model', 'model');
  const trimmed = model.trim();
  if (trimmed.length > FIELD_LIMITS.model) throw invalid(`model must be at most ${FIELD_LIMITS.model} characters`, 'model');
  if (/[\p{Cc}\p{Cf}]/u.test(trimmed)) throw invalid('model must not contain control characters', 'model');
  return trimmed;
}

/** A price in USD: a number from 0 to PRICE_MAX with at most PRICE_DECIMALS decimals. */
function checkAmount(value: unknown, field: string): number {
  const scaled = typeof value === 'number' ? value * 10 ** PRICE_DECIMALS : Number.NaN;
  if (!Number.isFinite(scaled) || (value as number) < 0 || (value as number) > PRICE_MAX || Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    throw invalid(
      `${field} must be a number of USD from 0 to ${PRICE_MAX} with at most ${PRICE_DECIMALS} decimals; got ${JSON.stringify(value)?.slice(0, 40)}`,
      field,
    );
  }
  return Math.round(scaled) / 10 ** PRICE_DECIMALS;
}

/** The body of a price change (admin API `PUT /prices/:model`, the CLI's `price set`). */
export function readPriceInput(body: unknown): PriceInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('The body must be a JSON object', null);
  const given = body as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!['input_per_mtok', 'output_per_mtok', 'per_call'].includes(key))
      throw invalid(`Unknown field "${key.slice(0, 40)}"; known: input_per_mtok, output_per_mtok, per_call`, key.slice(0, 40));
  }
  const input: PriceInput = {
    input_per_mtok: checkAmount(given['input_per_mtok'], 'input_per_mtok'),
    output_per_mtok: checkAmount(given['output_per_mtok'], 'output_per_mtok'),
  };
  if (given['per_call'] !== undefined) input.per_call = checkAmount(given['per_call'], 'per_call');
  return input;
}

// Money as the console and the CLI show it, one way everywhere: the amount with 4 to 6 decimals, then its unit (`0.0375 USD`).
import { PRICE_CURRENCY, PRICE_DECIMALS } from './prices.ts';

/** Most decimals an amount is shown with: a call's cost of a few tokens (0.000061 USD) is shown, not rounded away. */
export const MONEY_MAX_DECIMALS = 6;

/**
 * `0.5` → `0.5000 USD`, `0.000061` → `0.000061 USD`: at least PRICE_DECIMALS decimals, up to MONEY_MAX_DECIMALS when
 * the amount has them, then the currency.
 */
export function formatMoney(amount: number): string {
  const digits = amount.toFixed(MONEY_MAX_DECIMALS);
  const trimmed = digits.replace(new RegExp(`(\\.\\d{${PRICE_DECIMALS}}\\d*?)0+$`), '$1');
  return `${trimmed} ${PRICE_CURRENCY}`;
}

// The owner-editable price table as the admin API, the CLI and the console see it: one row per model, its unit, and how money is shown.

/** The currency every price and amount is in. */
export const PRICE_CURRENCY = 'USD';

/** Decimals a price may have and is shown with (USD 0.0375 per million tokens is a real price). */
export const PRICE_DECIMALS = 4;

/** Highest price accepted, per million tokens or per call. */
export const PRICE_MAX = 1_000_000;

/** At most this many models may have a price of their own besides the documented defaults. */
export const PRICE_ROWS_MAX = 1000;

/** The row whose price every model without a row of its own is charged at. */
export const DEFAULT_PRICE_MODEL = 'default';

/** One price: per million input and output tokens, and a flat amount per call (3D tasks), in USD. */
export interface PriceValues {
  input_per_mtok: number;
  output_per_mtok: number;
  per_call: number;
}

/** One row of the table: the price charged now, where it comes from, and the documented default it resets to. */
export interface PriceRow extends PriceValues {
  model: string;
  /** `default`: the documented price; `owner`: set by the owner (admin API, CLI or console). */
  source: 'default' | 'owner';
  /** The row whose price applies: `model` itself, or `default` for a model with no price of its own. */
  charged_as: string;
  /** The documented price of this model, or null for a model the owner added (a reset removes its row). */
  documented: PriceValues | null;
  /** When the owner last set it (epoch ms); null for a documented price. */
  updated_at: number | null;
}

/** Body of a price change: the per-million prices, and optionally the flat per-call price (absent: kept, or 0 for a new row). */
export interface PriceInput {
  input_per_mtok: number;
  output_per_mtok: number;
  per_call?: number;
}

// The owner's price table: the documented prices as its seed, the owner's rows (SQLite) over them, read per charge so a change bills the next call.
import { DEFAULT_PRICE_MODEL, PRICE_ROWS_MAX, type PriceInput, type PriceRow, type PriceValues } from '../../../shared/prices.ts';
import { GatewayError } from '../errors.ts';
import type { PriceRecord, PricesRepo } from '../storage/prices-repo.ts';
import type { Clock } from '../time.ts';
import { PRICES, type Price } from './pricing.ts';
import { checkPriceModel } from './price-input.ts';

/** What billing asks of a price table. */
export interface PriceLookup {
  /** The price `model` is charged at now: its own row, else the `default` row. */
  priceOf(model: string): Price;
}

const valuesOf = (price: Price): PriceValues => ({
  input_per_mtok: price.inputPerMillion,
  output_per_mtok: price.outputPerMillion,
  per_call: price.perCall,
});

const priceOfRecord = (record: PriceRecord): Price => ({
  inputPerMillion: record.input_per_mtok,
  outputPerMillion: record.output_per_mtok,
  perCall: record.per_call,
});

/** The documented price of `model`, if it has one of its own. */
const documentedOf = (model: string): Price | undefined => (Object.hasOwn(PRICES, model) ? PRICES[model] : undefined);

/** What a free local model is charged (see PriceTable's `freeModel`). */
const FREE: Price = { inputPerMillion: 0, outputPerMillion: 0, perCall: 0 };

export class PriceTable implements PriceLookup {
  private readonly repo: PricesRepo;
  private readonly clock: Clock;
  /** Whether a model is served only by keyless channels on this machine (absent: none is): it costs 0 unless the owner priced it. */
  private readonly freeModel: (model: string) => boolean;
  constructor(repo: PricesRepo, clock: Clock, freeModel: (model: string) => boolean = () => false) {
    this.repo = repo;
    this.clock = clock;
    this.freeModel = freeModel;
  }

  priceOf(model: string): Price {
    const own = this.repo.find(model);
    if (own) return priceOfRecord(own);
    if (this.freeModel(model)) return FREE;
    const documented = documentedOf(model);
    if (documented) return documented;
    const fallback = this.repo.find(DEFAULT_PRICE_MODEL);
    return fallback ? priceOfRecord(fallback) : PRICES[DEFAULT_PRICE_MODEL]!;
  }

  /** Every row: the documented models and the owner's, `default` first, then by name. */
  list(): PriceRow[] {
    const owned = new Map(this.repo.list().map((record) => [record.model, record]));
    const models = [...new Set([...Object.keys(PRICES), ...owned.keys()])];
    models.sort((a, b) => (a === DEFAULT_PRICE_MODEL ? -1 : b === DEFAULT_PRICE_MODEL ? 1 : a.localeCompare(b)));
    return models.map((model) => this.rowOf(model, owned.get(model)));
  }

  /** The row of `model`: its own price, or, for a model with none, the `default` price it is charged at (`charged_as: "default"`). */
  get(model: string): PriceRow {
    return this.rowOf(checkPriceModel(model));
  }

  /** Sets the owner's price of `model` (a `per_call` left out keeps the current one); the next call is charged at it. */
  set(model: string, input: PriceInput): PriceRow {
    const name = checkPriceModel(model);
    const existing = this.repo.find(name);
    if (!existing && !documentedOf(name) && this.repo.count() >= PRICE_ROWS_MAX) {
      throw new GatewayError(
        'invalid_request',
        `The price table holds at most ${PRICE_ROWS_MAX} models of the owner's; reset some first`,
        'model',
      );
    }
    const current = existing ? priceOfRecord(existing) : (documentedOf(name) ?? { perCall: 0 });
    this.repo.put({
      model: name,
      input_per_mtok: input.input_per_mtok,
      output_per_mtok: input.output_per_mtok,
      per_call: input.per_call ?? current.perCall,
      updated_at: this.clock.now(),
    });
    return this.rowOf(name);
  }

  /**
   * Drops the owner's price of `model`, if any, and answers its row as charged from now on: a documented model at its
   * documented price, another at the `default` row's.
   */
  reset(model: string): PriceRow {
    const name = checkPriceModel(model);
    this.repo.delete(name);
    return this.rowOf(name);
  }

  private rowOf(model: string, record = this.repo.find(model)): PriceRow {
    const documented = documentedOf(model);
    if (!record && !documented && model !== DEFAULT_PRICE_MODEL) return { ...this.rowOf(DEFAULT_PRICE_MODEL), model, documented: null };
    const price = record ? priceOfRecord(record) : documented!;
    return {
      model,
      ...valuesOf(price),
      source: record ? 'owner' : 'default',
      charged_as: record || documented ? model : DEFAULT_PRICE_MODEL,
      documented: documented ? valuesOf(documented) : null,
      updated_at: record?.updated_at ?? null,
    };
  }
}

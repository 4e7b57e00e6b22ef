// Records the usage and amount of every billed call against its token and account (portrait calls are never billed).
import type { UsageRepo } from '../storage/usage-repo.ts';
import type { Clock } from '../time.ts';
import { amountMicros } from './pricing.ts';
import type { Principal } from './tokens.ts';

/** What a billed call used. */
export interface Usage {
  endpoint: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Overrides the price table, e.g. for per-image or per-second prices computed by the caller. */
  amountMicros?: number;
}

export class BillingService {
  private readonly repo: UsageRepo;
  private readonly clock: Clock;
  /** Configured model aliases: an alias is priced as the model it stands for. */
  private readonly aliases: Readonly<Record<string, string>>;
  constructor(repo: UsageRepo, clock: Clock, aliases: Readonly<Record<string, string>> = {}) {
    this.repo = repo;
    this.clock = clock;
    this.aliases = aliases;
  }

  /** Charges a call to the caller's token; returns the amount in micro-units. */
  charge(principal: Principal, usage: Usage): number {
    const priced = this.aliases[usage.model] ?? usage.model;
    const amount = usage.amountMicros ?? amountMicros(priced, usage.inputTokens, usage.outputTokens);
    this.repo.record({
      account_id: principal.accountId,
      token_id: principal.tokenId,
      endpoint: usage.endpoint,
      model: usage.model,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      amount_micros: amount,
      created_at: this.clock.now(),
    });
    return amount;
  }
}

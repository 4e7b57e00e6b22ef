// Records the usage and amount of every billed call against its token and account (portrait calls are never billed); rolls old records up.
import { writeAtOnce, type CommittedWrites, type JoinedWrite } from '../storage/group-commit.ts';
import type { UsageRecord, UsageRepo } from '../storage/usage-repo.ts';
import { DAY_MS, type Clock } from '../time.ts';
import { FIELD_LIMITS } from '../../../shared/field-limits.ts';
import { amountAt, priceOf } from './pricing.ts';
import type { PriceLookup } from './price-table.ts';
import { NOTHING_HELD, type QuotaLedger, type Reservation } from './quota-ledger.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';
import { hasQuota } from '../principal.ts';
import type { Principal } from './tokens.ts';

/** A usage record dated more than this after the clock's now was written while the clock was set ahead: the roll-up takes it at once. */
export const RECORD_AHEAD_MS = DAY_MS;

/** What a billed call used. */
export interface Usage {
  endpoint: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Overrides the price table, e.g. for per-image or per-second prices computed by the caller. */
  amountMicros?: number;
}

/** How the ledger is kept small. */
export interface LedgerUpkeep {
  limits: Pick<StorageLimits, 'usageRawMaxAgeMs' | 'pruneBatch' | 'usageRollupEveryMs'>;
  /** A roll-up step that failed (it is retried later; the call is billed regardless). */
  onError(error: unknown): void;
  /**
   * How charges are committed: absent, each at once in its own transaction; the gateway passes its group commit, so
   * the charges of one event-loop turn share one transaction and one flush.
   */
  writes?: CommittedWrites;
}

/** A charge on its way to the ledger: its record, and whose quota counts it until it is written. */
interface Charge {
  entry: UsageRecord;
  principal: Principal;
}

export class BillingService {
  private readonly repo: UsageRepo;
  private readonly clock: Clock;
  /** Configured model aliases: an alias is priced as the model it stands for. */
  private readonly aliases: Readonly<Record<string, string>>;
  private readonly upkeep: LedgerUpkeep;
  /** How charges are committed (`upkeep.writes`, else each at once). */
  private readonly writes: CommittedWrites;
  /** The price table, read on every charge (so a price the owner changed bills the next call). */
  private readonly prices: PriceLookup;
  /** What calls under way hold of their tokens' quotas (absent: quotas are checked only as each call starts, by the token check). */
  private readonly quotas: QuotaLedger | undefined;
  /**
   * How charges are written: the charges of one group commit in one go (a record each, one update per token and per
   * day's totals), and each leaves the quota's pending amounts once written or failed.
   */
  private readonly charges: JoinedWrite<Charge> = {
    writeMany: (charges) => {
      this.repo.appendAll(charges.map((charge) => charge.entry));
      this.rollUpStep();
    },
    writeOne: (charge) => {
      this.repo.record(charge.entry);
      this.rollUpStep();
    },
    settled: (charge) => this.quotas?.pending(charge.principal, -charge.entry.amount_micros),
  };
  /** Clock time of the last roll-up step; -Infinity: none yet, so the first charge makes one. */
  private lastRollUp = Number.NEGATIVE_INFINITY;
  constructor(
    repo: UsageRepo,
    clock: Clock,
    aliases: Readonly<Record<string, string>> = {},
    upkeep: LedgerUpkeep = { limits: STORAGE_LIMITS, onError: () => undefined },
    prices: PriceLookup = { priceOf },
    quotas?: QuotaLedger,
  ) {
    this.repo = repo;
    this.clock = clock;
    this.aliases = aliases;
    this.upkeep = upkeep;
    this.writes = upkeep.writes ?? writeAtOnce;
    this.prices = prices;
    this.quotas = quotas;
  }

  /**
   * Holds the upper estimate of a call (`estimate()`, priced as its charge will be) against the caller's quota before the
   * call starts, or throws the quota refusal (403) when it could take the token past its quota. Release it when the call
   * ended (`Reservation.during`), after its charge. A token without a quota holds nothing, and nothing is estimated.
   */
  reserve(principal: Principal, estimate: () => Omit<Usage, 'endpoint'>): Reservation {
    if (this.quotas === undefined || !hasQuota(principal)) return NOTHING_HELD;
    return this.quotas.reserve(principal, this.amountOf(estimate()));
  }

  /** Charges a call to the caller's token, committed before it returns; returns the amount in micro-units. */
  charge(principal: Principal, usage: Usage): number {
    const entry = this.entryOf(principal, usage);
    writeAtOnce.deferItem(this.charges, { entry, principal });
    return entry.amount_micros;
  }

  /**
   * Charges a call before its answer goes out, like `charge`, but resolves once the charge is durable as part of this
   * event-loop turn's group commit: the caller awaits it before answering, so what is acknowledged is still committed,
   * and concurrent calls share one flush (the group commit's own promise, without one of its own on top).
   */
  chargeCommitted(principal: Principal, usage: Usage): Promise<void> {
    let entry: UsageRecord;
    try {
      entry = this.entryOf(principal, usage);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.writes.commitItem(this.charges, { entry, principal });
  }

  /**
   * Charges a call whose answer has already gone out (a relayed answer, billed by the usage read as it passed): no
   * caller waits for this write, so it joins the next group commit (`upkeep.writes`, within DEFERRED_COMMIT_MS) instead
   * of flushing on its own. A token with a quota has it committed at the end of this event-loop turn: the next call's
   * token check reads what it spent as committed. Returns the amount in micro-units.
   */
  chargeAnswered(principal: Principal, usage: Usage): number {
    const entry = this.entryOf(principal, usage);
    this.writes.deferItem(this.charges, { entry, principal }, hasQuota(principal));
    return entry.amount_micros;
  }

  private amountOf(usage: Omit<Usage, 'endpoint'>): number {
    const priced = this.aliases[usage.model] ?? usage.model;
    return usage.amountMicros ?? amountAt(this.prices.priceOf(priced), usage.inputTokens, usage.outputTokens);
  }

  /** The ledger record of a charge (its amount in `amount_micros`), counted against the token's quota until written. */
  private entryOf(principal: Principal, usage: Usage): UsageRecord {
    const amount = this.amountOf(usage);
    // Until it is written, the charge counts against the token's quota in memory.
    this.quotas?.pending(principal, amount);
    const entry = {
      account_id: principal.accountId,
      token_id: principal.tokenId,
      endpoint: usage.endpoint,
      // The ledger keeps a model name no longer than any stored name (a caller may send a huge one).
      model: usage.model.slice(0, FIELD_LIMITS.model),
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      amount_micros: amount,
      created_at: this.clock.now(),
    };
    principal.notes?.charged({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, amountMicros: amount });
    return entry;
  }

  /**
   * At write time, at most once per `usageRollupEveryMs` (or right away while old records remain), rolls up one
   * bounded batch of records older than `usageRawMaxAgeMs` (or dated more than RECORD_AHEAD_MS ahead). A clock set back
   * behind the last step runs it at once (it would otherwise wait until the clock caught up again, the records written
   * ahead with it). A failure is reported, never thrown: the charge stands.
   */
  rollUpStep(): number {
    const { limits } = this.upkeep;
    const now = this.clock.now();
    if (now >= this.lastRollUp && now - this.lastRollUp < limits.usageRollupEveryMs) return 0;
    try {
      const rolled = this.repo.rollUp(now - limits.usageRawMaxAgeMs, limits.pruneBatch, now + RECORD_AHEAD_MS);
      this.lastRollUp = rolled >= limits.pruneBatch ? Number.NEGATIVE_INFINITY : now;
      return rolled;
    } catch (error) {
      this.lastRollUp = now;
      this.upkeep.onError(error);
      return 0;
    }
  }
}

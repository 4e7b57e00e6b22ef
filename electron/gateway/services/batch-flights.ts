// The batch lines under way in this process: per batch (to abort them when it is cancelled or ends) and per account (a bound on each account's lines in flight, so no account's slow upstream holds another's batches).

/** The lines of one batch under way, and how far its dispatch has come. */
export interface Flight {
  readonly batchId: string;
  readonly accountId: number;
  /** The next line to consider starting. */
  cursor: number;
  /** Lines at or past the cursor that already have a result (recorded before a restart): never run again. */
  readonly done: ReadonlySet<number>;
  /** The lines running now. */
  readonly running: Set<number>;
  /** Aborted when the batch is cancelled, fails or expires (its lines stop). */
  readonly controller: AbortController;
}

export class BatchFlights {
  private readonly perAccount: number;
  private readonly flights = new Map<string, Flight>();
  private readonly inFlight = new Map<number, number>();
  private readonly pending = new Set<Promise<void>>();

  /** `perAccount`: most lines of one account running at once, whatever its number of batches. */
  constructor(perAccount: number) {
    this.perAccount = perAccount;
  }

  /** The flight of `batchId`, begun at `cursor` (with `done()` read only then) when there is none yet. */
  open(batchId: string, accountId: number, cursor: number, done: () => ReadonlySet<number>): Flight {
    let flight = this.flights.get(batchId);
    if (!flight) {
      flight = { batchId, accountId, cursor, done: done(), running: new Set(), controller: new AbortController() };
      this.flights.set(batchId, flight);
    }
    return flight;
  }

  /** Whether `flight` is still the batch's (not closed since). */
  current(flight: Flight): boolean {
    return this.flights.get(flight.batchId) === flight;
  }

  /** Whether the account may start another line now. */
  canStart(accountId: number): boolean {
    return (this.inFlight.get(accountId) ?? 0) < this.perAccount;
  }

  /**
   * Starts line `index` of `flight`: `work` gets a signal that fires when the batch is stopped (`cancelled`) or the gateway stops
   * (`stopping`); its promise is never awaited by the caller and must report its own failures. Its account's count is freed when it settles, however late.
   */
  start(flight: Flight, index: number, stopping: AbortSignal, work: (signal: AbortSignal) => Promise<void>): void {
    flight.running.add(index);
    this.inFlight.set(flight.accountId, (this.inFlight.get(flight.accountId) ?? 0) + 1);
    const done = work(AbortSignal.any([stopping, flight.controller.signal])).finally(() => {
      flight.running.delete(index);
      const left = (this.inFlight.get(flight.accountId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(flight.accountId, left);
      else this.inFlight.delete(flight.accountId);
      this.pending.delete(done);
    });
    // `work` reports its own failures; nothing may reject unheard.
    done.catch(() => undefined);
    this.pending.add(done);
  }

  /** Aborts the lines of `batchId` under way (a cancel); the flight stays until `close`. */
  abort(batchId: string): void {
    this.flights.get(batchId)?.controller.abort(new Error('the batch was cancelled'));
  }

  /** Ends the batch's flight: its lines under way are aborted and whatever they answer later is dropped. */
  close(batchId: string): void {
    const flight = this.flights.get(batchId);
    if (!flight) return;
    flight.controller.abort(new Error('the batch ended'));
    this.flights.delete(batchId);
  }

  /** Resolves once every line started so far has settled (the gateway is stopping: they were aborted); then forgets every flight. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    this.flights.clear();
  }
}

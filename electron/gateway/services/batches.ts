// Batches per account: created from an uploaded JSONL file, moved on the clock through validating → in_progress → finalizing → completed (or cancelled, failed, expired), each line run by BatchLines, results kept in SQLite so a restart resumes where it stopped.
import { GatewayError, invalid, notFound } from '../errors.ts';
import { publicId, randomBase62 } from '../ids.ts';
import {
  answeredLine,
  batchError,
  parseBatchLine,
  unsentLine,
  type BatchCreate,
  type BatchEndpoint,
} from '../protocols/openai/inbound/batches.ts';
import type { Principal } from '../principal.ts';
import type { CallContext } from '../providers/types.ts';
import type { AccountsRepo } from '../storage/accounts-repo.ts';
import type { BatchesRepo, BatchResultRow, BatchRow } from '../storage/batches-repo.ts';
import type { CursorAsk } from '../storage/cursor-rows.ts';
import type { Db } from '../storage/database.ts';
import type { TokensRepo } from '../storage/tokens-repo.ts';
import type { Clock } from '../time.ts';
import type { ApiFiles } from './api-files.ts';
import { BatchFlights, type Flight } from './batch-flights.ts';
import { lineRefused, type BatchLines } from './batch-lines.ts';
import { lapsedToken, modelsOf } from './tokens.ts';
import type { StorageLimits } from './storage-limits.ts';
import { countsOf, newBatch, seconds, usageTotal, type Json } from './batch-object.ts';

/**
 * The pace of a batch by the gateway's clock (documented in docs/endpoints.md): `validating` for validatingMs, then at most
 * linesPerSecond lines per second of the clock, with at most `concurrency` lines of one account running at once (over all
 * its batches; other accounts' lines never wait for them), then `finalizing` for finalizingMs.
 */
export const BATCH_PACE = { validatingMs: 1000, linesPerSecond: 50, concurrency: 8, finalizingMs: 1000 } as const;
/** Most request lines in one input file, as on the real API. */
export const MAX_BATCH_LINES = 50_000;
/** Input files kept in memory while their batches run (the rest are read again when their turn comes). */
const CACHED_INPUTS = 4;

export interface BatchesDeps {
  db: Db;
  repo: BatchesRepo;
  accounts: AccountsRepo;
  /** The tokens batches were made with: their quota as it is now holds their lines. */
  tokens: Pick<TokensRepo, 'findByTokenId'>;
  files: ApiFiles;
  lines: BatchLines;
  clock: Clock;
  limits: StorageLimits;
}

export class BatchesService {
  private readonly deps: BatchesDeps;
  /** The request lines of recently read input files, by batch id. */
  private readonly inputs = new Map<string, string[]>();
  /** The lines under way, per batch and per account. */
  private readonly flights = new BatchFlights(BATCH_PACE.concurrency);
  constructor(deps: BatchesDeps) {
    this.deps = deps;
  }

  /**
   * A new batch of the caller's uploaded file (purpose `batch`), `validating`. Finished batches past their age go first;
   * at the account's cap its oldest finished batch is deleted, or the call is a 400 when none is finished.
   */
  create(principal: Principal, asked: BatchCreate): Json {
    const { repo, clock, limits, files } = this.deps;
    const file = files.get(principal.accountId, asked.inputFileId);
    if (file.purpose !== 'batch')
      throw invalid(
        `File ${asked.inputFileId} was uploaded with purpose '${file.purpose}'; a batch needs purpose 'batch'.`,
        'input_file_id',
      );
    const now = clock.now();
    const id = publicId('batch');
    const batch = newBatch(id, asked, now);
    this.deps.db
      .transaction(() => {
        for (const old of repo.finishedBefore(now - limits.batchMaxAgeMs, limits.pruneBatch)) repo.delete(old);
        if (repo.count(principal.accountId) >= limits.batchesPerAccount) {
          const oldest = repo.oldestFinished(principal.accountId);
          if (!oldest)
            throw invalid(
              `This account has ${limits.batchesPerAccount} batches still running, the most allowed; wait or cancel one.`,
              'input_file_id',
            );
          repo.delete(oldest);
        }
        repo.insert({
          batch_id: id,
          account_id: principal.accountId,
          token_id: principal.tokenId,
          status: 'validating',
          batch_json: JSON.stringify(batch),
          created_at: now,
        });
      })
      .immediate();
    return batch;
  }

  get(accountId: number, batchId: string): Json {
    return JSON.parse(this.find(accountId, batchId).batch_json) as Json;
  }

  list(accountId: number, ask: CursorAsk): { data: Json[]; hasMore: boolean } {
    const { rows, hasMore } = this.deps.repo.list(accountId, ask);
    return { data: rows.map((row) => JSON.parse(row.batch_json) as Json), hasMore };
  }

  /**
   * Asks a running batch to stop: `cancelling` now, its lines under way aborted (left out of its files unless they had
   * answered), and `cancelled` (with the results so far in its files) at the runner's next step.
   */
  cancel(accountId: number, batchId: string): Json {
    const row = this.find(accountId, batchId);
    const batch = JSON.parse(row.batch_json) as Json;
    if (row.status === 'cancelling' || row.status === 'cancelled') return batch;
    if (row.status !== 'validating' && row.status !== 'in_progress') {
      throw invalid(`Cannot cancel a batch that is ${row.status}.`, 'batch_id');
    }
    const cancelling = this.write(row, { ...batch, status: 'cancelling', cancelling_at: seconds(this.deps.clock.now()) });
    this.flights.abort(batchId);
    return cancelling;
  }

  /**
   * One step of the batches being worked on (`most` of them, each account's oldest first, so every account with a batch gets
   * its turn): what the clock allows of each. Lines are started, never awaited: each is recorded when it answers. A batch
   * whose step fails unexpectedly ends `failed`; nothing is thrown. `signal` aborts the lines under way (the gateway stops).
   */
  async advance(signal: AbortSignal, onError: (error: unknown) => void, most = 16): Promise<void> {
    for (const row of this.deps.repo.active(most)) {
      if (signal.aborted) return;
      try {
        await this.step(row, signal, onError);
      } catch (error) {
        onError(error);
        const current = this.deps.repo.byId(row.batch_id);
        if (current)
          this.fail(current, batchError('internal_error', 'The batch stopped on an internal error of the gateway; see its log.'));
      }
    }
  }

  /** Resolves once every line started has settled (call after aborting `advance`'s signal: the gateway is stopping). */
  async settle(): Promise<void> {
    await this.flights.settle();
  }

  private async step(row: BatchRow, signal: AbortSignal, onError: (error: unknown) => void): Promise<void> {
    const now = this.deps.clock.now();
    const batch = JSON.parse(row.batch_json) as Json;
    switch (row.status) {
      case 'cancelling':
        return this.finish(row, 'cancelled', 'cancelled_at');
      case 'validating':
        if (now < row.created_at + BATCH_PACE.validatingMs) return;
        return this.validate(row, batch);
      case 'in_progress':
        if (now >= Number(batch['expires_at']) * 1000) return this.finish(row, 'expired', 'expired_at');
        return this.runLines(row, batch, now, signal, onError);
      case 'finalizing':
        if (now < Number(batch['finalizing_at']) * 1000 + BATCH_PACE.finalizingMs) return;
        return this.finish(row, 'completed', 'completed_at');
    }
  }

  /** Reads the input file: an empty or oversized one fails the batch; otherwise it is `in_progress` with its line count. */
  private async validate(row: BatchRow, batch: Json): Promise<void> {
    const lines = await this.readLines(row, batch);
    if (!lines) return;
    if (lines.length === 0) return this.fail(row, batchError('empty_file', 'The input file has no request lines.'));
    if (lines.length > MAX_BATCH_LINES) {
      return this.fail(
        row,
        batchError('too_many_requests', `The input file has ${lines.length} lines; at most ${MAX_BATCH_LINES} per batch.`),
      );
    }
    this.write(row, {
      ...batch,
      status: 'in_progress',
      // Stamped when it became due (not when the runner looked): a clock moved forward runs the batch as if time had passed.
      in_progress_at: seconds(Math.min(this.deps.clock.now(), row.created_at + BATCH_PACE.validatingMs)),
      request_counts: { total: lines.length, completed: 0, failed: 0 },
    });
  }

  /**
   * Starts the next lines the clock and the account's bound allow; each is recorded as it answers. Once every line has its
   * result the batch moves on to `finalizing`. An input file deleted before a restart let it be read again fails the batch.
   */
  private async runLines(row: BatchRow, batch: Json, now: number, signal: AbortSignal, onError: (error: unknown) => void): Promise<void> {
    const lines = await this.readLines(row, batch);
    if (!lines) return;
    const { repo } = this.deps;
    const flight = this.flights.open(row.batch_id, row.account_id, row.next_line, () => repo.resultLinesFrom(row.batch_id, row.next_line));
    const allowed = Math.floor(((now - Number(batch['in_progress_at']) * 1000) * BATCH_PACE.linesPerSecond) / 1000);
    const endpoint = batch['endpoint'] as BatchEndpoint;
    let caller: ReturnType<BatchesService['callerOf']> | undefined;
    while (flight.cursor < lines.length && flight.cursor < allowed && this.flights.canStart(row.account_id)) {
      const index = flight.cursor++;
      if (flight.done.has(index)) continue;
      const { principal, refusal } = (caller ??= this.callerOf(row));
      this.flights.start(flight, index, signal, async (lineSignal) => {
        try {
          this.record(flight, await this.runLine(lines[index]!, index, endpoint, principal, refusal, lineSignal), lineSignal);
        } catch (error) {
          onError(error);
        }
      });
    }
    if (flight.cursor < lines.length || flight.running.size > 0) return;
    const current = repo.byId(row.batch_id);
    if (!current || current.status !== 'in_progress') return; // Cancelled meanwhile: the next step finishes it.
    this.flights.close(row.batch_id);
    const next = { ...(JSON.parse(current.batch_json) as Json), request_counts: repo.counts(row.batch_id, lines.length) };
    // As for in_progress_at: the moment the pace let the last line start, when that is already past.
    const paced = Number(batch['in_progress_at']) * 1000 + Math.ceil((lines.length * 1000) / BATCH_PACE.linesPerSecond);
    this.write(current, { ...next, status: 'finalizing', finalizing_at: seconds(Math.min(this.deps.clock.now(), paced)) });
  }

  /**
   * Keeps the answer of a line and the batch's counts. A line cut short (its batch cancelled, the gateway stopping) never
   * answered and was not charged: it is dropped (and, the gateway stopping, runs again after the restart); one that answered
   * before the cut is kept, so it never runs twice. An answer after its batch ended is dropped.
   */
  private record(flight: Flight, result: BatchResultRow, signal: AbortSignal): void {
    if (!this.flights.current(flight) || (signal.aborted && result.ok !== 1)) return;
    const { repo } = this.deps;
    repo.addResult(flight.batchId, result);
    const current = repo.byId(flight.batchId);
    if (!current || current.status !== 'in_progress') return;
    const batch = JSON.parse(current.batch_json) as Json;
    const total = Number((batch['request_counts'] as Json | undefined)?.['total'] ?? 0);
    this.write(current, { ...batch, request_counts: repo.counts(flight.batchId, total) });
  }

  private async runLine(
    text: string,
    index: number,
    endpoint: BatchEndpoint,
    principal: Principal,
    refusal: GatewayError | undefined,
    signal: AbortSignal,
  ): Promise<BatchResultRow> {
    const id = publicId('batch_req');
    const line = parseBatchLine(text, endpoint);
    if (!line.ok) return { line: index, ok: 0, result_json: JSON.stringify(unsentLine(id, line.customId, line.code, line.message)) };
    const call: CallContext = {
      principal,
      protocol: endpoint === '/v1/responses' ? 'responses' : 'openai',
      endpoint,
      rawBody: Buffer.from(JSON.stringify(line.body)),
      headers: {},
      signal,
    };
    // A token that may no longer call runs no more lines: each answers as the token's own call would be refused.
    const answer = refusal ? lineRefused(refusal) : await this.deps.lines.run(endpoint, line.body, call);
    const ok = answer.status >= 200 && answer.status < 300 ? 1 : 0;
    return {
      line: index,
      ok,
      result_json: JSON.stringify(answeredLine(id, line.customId, answer.status, `req_${randomBase62(24)}`, answer.body)),
    };
  }

  /** Writes the output and error files of the results so far, and ends the batch with `status`. */
  private finish(row: BatchRow, status: 'completed' | 'cancelled' | 'expired', stamp: string): void {
    const batch = JSON.parse(row.batch_json) as Json;
    const results = this.deps.repo.results(row.batch_id);
    const total = Number((batch['request_counts'] as Json | undefined)?.['total'] ?? 0);
    const outputs = results.filter((result) => result.ok === 1);
    const errors = results.filter((result) => result.ok === 0);
    const expires = batch['output_expires_after'] as { seconds: number } | undefined;
    const keep = (kind: string, list: BatchResultRow[]) =>
      list.length === 0
        ? null
        : this.deps.files.create(row.account_id, {
            filename: `${row.batch_id}_${kind}.jsonl`,
            purpose: 'batch_output',
            bytes: Buffer.from(list.map((result) => result.result_json).join('\n') + '\n'),
            ...(expires && { expiresAfterSeconds: expires.seconds }),
          }).file_id;
    let files: { output: string | null; error: string | null };
    try {
      files = { output: keep('output', outputs), error: keep('error', errors) };
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      return this.fail(row, batchError('output_not_stored', `The results could not be stored: ${error.message}`));
    }
    this.write(row, {
      ...batch,
      status,
      [stamp]: seconds(this.deps.clock.now()),
      output_file_id: files.output,
      error_file_id: files.error,
      request_counts: countsOf(results, total),
      usage: usageTotal(outputs),
    });
    this.deps.repo.deleteResults(row.batch_id);
    this.inputs.delete(row.batch_id);
    this.flights.close(row.batch_id);
  }

  private fail(row: BatchRow, error: Json): void {
    const batch = JSON.parse(row.batch_json) as Json;
    this.write(row, { ...batch, status: 'failed', failed_at: seconds(this.deps.clock.now()), errors: { object: 'list', data: [error] } });
    this.deps.repo.deleteResults(row.batch_id);
    this.inputs.delete(row.batch_id);
    this.flights.close(row.batch_id);
  }

  /** The batch's request lines (`inputOf`), or undefined once the batch failed because its input file cannot be read. */
  private async readLines(row: BatchRow, batch: Json): Promise<string[] | undefined> {
    try {
      return await this.inputOf(row, batch);
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      this.fail(row, batchError('invalid_file', `The input file cannot be read: ${error.message}`));
      return undefined;
    }
  }

  /** The request lines of the batch's input file (blank lines left out), read once while the batch runs. */
  private async inputOf(row: BatchRow, batch: Json): Promise<string[]> {
    const cached = this.inputs.get(row.batch_id);
    if (cached) return cached;
    const bytes = await this.deps.files.content(row.account_id, String(batch['input_file_id']));
    const lines = bytes
      .toString('utf8')
      .split('\n')
      .map((line) => line.replace(/\r$/, ''))
      .filter((line) => line.trim() !== '');
    if (this.inputs.size >= CACHED_INPUTS) this.inputs.delete(this.inputs.keys().next().value!);
    this.inputs.set(row.batch_id, lines);
    return lines;
  }

  /**
   * The caller a batch's lines run (and are billed) as: the account and token that created it, with the token's quota as it
   * is now; and why its lines may not run, when the token was revoked, has expired or was deleted since (as its calls are
   * refused).
   */
  private callerOf(row: BatchRow): { principal: Principal; refusal: GatewayError | undefined } {
    const account = this.deps.accounts.findById(row.account_id);
    const token = this.deps.tokens.findByTokenId(row.token_id);
    const principal = {
      accountId: row.account_id,
      accountName: account?.name ?? '',
      tokenId: row.token_id,
      quotaMicros: token?.quota_micros ?? null,
      models: token ? modelsOf(token) : null,
    };
    const refusal = token
      ? lapsedToken(token, this.deps.clock.now())
      : new GatewayError('forbidden', 'The API token that created this batch has been deleted');
    return { principal, refusal };
  }

  private find(accountId: number, batchId: string): BatchRow {
    const row = this.deps.repo.find(accountId, batchId);
    if (!row) throw notFound(`No batch found with id '${batchId}'.`, 'batch_id');
    return row;
  }

  private write(row: BatchRow, batch: Json): Json {
    this.deps.repo.update(row.batch_id, String(batch['status']), JSON.stringify(batch));
    return batch;
  }
}

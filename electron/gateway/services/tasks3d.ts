// 3D generation task rules: submit to the provider, ask it where the task stands, finish once (file written, call charged), and present the spec's shape.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { publicId } from '../ids.ts';
import type { CallContext, Mesh3dChannels, Mesh3dProvider, Mesh3dState, Mesh3dTask, ProviderSelector } from '../providers/types.ts';
import type { Db } from '../storage/database.ts';
import type { ListedTask3dRow, Task3dOutcome, Task3dRow, Tasks3dRepo } from '../storage/tasks3d-repo.ts';
import type { Clock } from '../time.ts';
import type { BillingService } from './billing.ts';
import type { Reservation } from './quota-ledger.ts';
import { GatewayError, notFound, UpstreamError } from '../errors.ts';
import { readGeneratedFile, storeGeneratedFile } from './generated-files.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';
import type { Principal } from './tokens.ts';
import type { AdminTask3d, Task3dView } from '../../../shared/tasks3d.ts';
import type { Paging } from './paging.ts';
import { keptUpstreamText } from './upstream-text.ts';

/** Output formats and their content types. */
export const TASK3D_FORMATS = { glb: 'model/gltf-binary', obj: 'model/obj', stl: 'model/stl' } as const;
export type Task3dFormat = keyof typeof TASK3D_FORMATS;

/** Result files live in `<dataDir>/files/3d/`. */
export const FILES_KIND = '3d';

export interface Task3dInput {
  model: string;
  prompt: string;
  imageUrl: string | null;
  format: Task3dFormat;
}

export interface Tasks3dDeps {
  repo: Tasks3dRepo;
  db: Db;
  billing: BillingService;
  clock: Clock;
  dataDir: string;
  /** The 3D upstream of each call (`mesh3d`); tasks are checked without a call. */
  providers: ProviderSelector;
  /** `platform` channels: a model one serves is created there (and checked there); absent: none. */
  mesh3dChannels?: Mesh3dChannels;
  /** How long tasks are kept and how many go per pruning step (default `STORAGE_LIMITS`). */
  limits?: Pick<StorageLimits, 'tasks3dMaxAgeMs' | 'pruneBatch'>;
  /** A pruning step that failed (retried at the next creation; the new task is made regardless). */
  onError?: (error: unknown) => void;
}

export class Tasks3dService {
  private readonly deps: Tasks3dDeps;
  /** What each unfinished task holds of its token's quota (its model's price per call), until it is charged, fails or expires. */
  private readonly held = new Map<string, Reservation>();
  constructor(deps: Tasks3dDeps) {
    this.deps = deps;
  }

  /** Submits a task to the call's provider and stores it with the provider's id, input tokens and expected time. */
  async create(input: Task3dInput, origin: string, call: CallContext) {
    const { principal } = call;
    this.prune();
    // Held before the task is submitted, priced as its charge will be (tokens aside: they are known only as it finishes).
    const reservation = this.deps.billing.reserve(principal, () => ({ model: input.model, inputTokens: 0, outputTokens: 0 }));
    let route: Awaited<ReturnType<Mesh3dChannels['forModel']>>;
    let submitted: Awaited<ReturnType<Mesh3dProvider['submit']>>;
    let row: Task3dRow;
    try {
      // Fixtures decide before the platform channels (a scripted task, or a strict-mode refusal).
      const bundle = this.deps.providers.for(call, input.model);
      route = bundle.fixture === undefined ? await this.deps.mesh3dChannels?.forModel(input.model) : undefined;
      submitted = await (route?.mesh3d ?? bundle.mesh3d).submit(input, call);
      row = this.deps.repo.insert({
        task_id: publicId('task'),
        upstream_id: submitted.upstreamId,
        account_id: principal.accountId,
        token_id: principal.tokenId,
        model: input.model,
        prompt: input.prompt,
        image_url: input.imageUrl,
        format: input.format,
        submitted_at: this.deps.clock.now(),
        duration_ms: submitted.durationMs,
        input_tokens: submitted.inputTokens,
        channel_id: route?.channelId ?? null,
      });
    } catch (error) {
      reservation.release();
      if (!(error instanceof UpstreamError)) throw error;
      throw new GatewayError('upstream_failed', `The 3D upstream refused the task: ${error.message}`);
    }
    if (reservation.micros > 0) this.held.set(row.task_id, reservation);
    return this.present(await this.observe(row), origin);
  }

  /** A task of the account, finished first when the provider says it is done; another account's id is unknown. */
  async get(accountId: number, taskId: string, origin: string) {
    const row = this.deps.repo.find(accountId, taskId);
    if (!row || this.expired(row)) throw notFound(`Task ${taskId} does not exist`, 'task_id');
    return this.present(await this.observe(row), origin);
  }

  /**
   * A page of tasks for the admin API, newest first, of one account or all: each unfinished one on the page is
   * observed (at most one page of provider checks; a check that fails leaves that task as stored).
   */
  async list(accountId: number | undefined, paging: Paging, origin: string): Promise<{ total: number; items: AdminTask3d[] }> {
    const since = this.deps.clock.now() - this.limits().tasks3dMaxAgeMs;
    const { total, rows } = this.deps.repo.page(accountId, since, paging.pageSize, paging.offset);
    const items = await Promise.all(rows.map((row) => this.observeListed(row, origin)));
    return { total, items };
  }

  /** Any account's task by id, for the admin API; unknown or expired is a 404. */
  async lookup(taskId: string, origin: string): Promise<AdminTask3d> {
    const row = this.deps.repo.findListed(taskId);
    if (!row || this.expired(row)) throw notFound(`Task ${taskId.slice(0, 80)} does not exist`, 'task_id');
    return this.presentListed(row, await this.observe(row), origin);
  }

  private async observeListed(row: ListedTask3dRow, origin: string): Promise<AdminTask3d> {
    let observed: Observed;
    try {
      observed = await this.observe(row);
    } catch {
      observed = { row };
    }
    return this.presentListed(row, observed, origin);
  }

  private presentListed(listed: ListedTask3dRow, observed: Observed, origin: string): AdminTask3d {
    const { row } = observed;
    return {
      ...this.present(observed, origin),
      account: listed.account_name,
      prompt: row.prompt,
      image_url: row.image_url,
      format: row.format,
    };
  }

  /** A result file's bytes and content type, for the file route; undefined for an unknown, expired, missing or linked file. */
  async file(name: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    const row = this.deps.repo.findByFile(name);
    if (!row || this.expired(row)) return undefined;
    const bytes = await readGeneratedFile(this.deps.dataDir, FILES_KIND, name);
    return bytes ? { bytes, contentType: TASK3D_FORMATS[row.format] } : undefined;
  }

  /** Tasks older than the age limit are gone, as if deleted (pruning catches up at the next creation). */
  private expired(row: Pick<Task3dRow, 'submitted_at'>): boolean {
    return row.submitted_at < this.deps.clock.now() - this.limits().tasks3dMaxAgeMs;
  }

  /** Gives back what the task `taskId` held of its token's quota, if it still holds anything. */
  private release(taskId: string): void {
    this.held.get(taskId)?.release();
    this.held.delete(taskId);
  }

  /** Deletes the oldest expired tasks and their files: one bounded batch; a failure is reported, never thrown. */
  private prune(): void {
    try {
      for (const row of this.deps.repo.oldest(this.limits().pruneBatch)) {
        if (!this.expired(row)) break;
        if (row.file_name) rmSync(path.join(this.deps.dataDir, 'files', FILES_KIND, row.file_name), { force: true });
        this.deps.repo.delete(row.task_id);
        this.release(row.task_id);
      }
    } catch (error) {
      this.deps.onError?.(error);
    }
  }

  private limits() {
    return this.deps.limits ?? STORAGE_LIMITS;
  }

  /**
   * The task as it stands: a finished one as stored (never asked again); otherwise the provider is asked, and a
   * finished answer is stored exactly once with the result file, the charge (priced by billing, so a model alias
   * costs what its model costs) and the amount shown, in one transaction.
   */
  private async observe(row: Task3dRow): Promise<Observed> {
    if (row.status !== null) {
      this.release(row.task_id);
      return { row };
    }
    const state = await this.check(row);
    if (state.state !== 'SUCCESS' && state.state !== 'FAILURE') return { row, live: { status: state.state, progress: state.progress } };
    const outcome = this.outcome(row, state);
    const finished = this.deps.db
      .transaction(() => {
        if (!this.deps.repo.finish(row.task_id, outcome)) return false;
        if (outcome.status === 'SUCCESS') {
          const principal: Principal = { accountId: row.account_id, accountName: '', tokenId: row.token_id };
          const amount = this.deps.billing.charge(principal, {
            endpoint: '/v1/3d/generations',
            model: row.model,
            inputTokens: row.input_tokens,
            outputTokens: outcome.output_tokens,
          });
          this.deps.repo.setAmount(row.task_id, amount);
        }
        return true;
      })
      .immediate();
    // Charged (or failed) now, by this call or another: the task's hold is given back.
    this.release(row.task_id);
    if (!finished && outcome.file_name) rmSync(path.join(this.deps.dataDir, 'files', FILES_KIND, outcome.file_name), { force: true });
    return { row: this.deps.repo.findById(row.task_id)! };
  }

  /** The provider's state of a task; an upstream that cannot tell is a 502. */
  private async check(row: Task3dRow): Promise<Mesh3dState> {
    const task: Mesh3dTask = {
      upstreamId: row.upstream_id,
      model: row.model,
      prompt: row.prompt,
      imageUrl: row.image_url,
      format: row.format,
      submittedAt: row.submitted_at,
      durationMs: row.duration_ms,
    };
    try {
      const mesh3d =
        row.channel_id !== null && this.deps.mesh3dChannels
          ? await this.deps.mesh3dChannels.ofChannel(row.channel_id, row.model)
          : this.deps.providers.for(undefined, row.model).mesh3d;
      return await mesh3d.check(task);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      throw new GatewayError('upstream_failed', `The 3D upstream could not tell the state of task ${row.task_id}: ${error.message}`);
    }
  }

  /** What finishing writes: the reason of a failure, or the result file stored under the data dir. */
  private outcome(row: Task3dRow, state: Extract<Mesh3dState, { state: 'SUCCESS' | 'FAILURE' }>): Task3dOutcome {
    const finishedAt = state.finishedAt ?? this.deps.clock.now();
    if (state.state === 'FAILURE') {
      return {
        status: 'FAILURE',
        failure_reason: keptUpstreamText(state.reason),
        finished_at: finishedAt,
        file_name: null,
        output_tokens: 0,
      };
    }
    const bytes = Buffer.from(state.file.buffer, state.file.byteOffset, state.file.byteLength);
    return {
      status: 'SUCCESS',
      failure_reason: null,
      finished_at: finishedAt,
      file_name: storeGeneratedFile(this.deps.dataDir, FILES_KIND, row.format, bytes),
      output_tokens: state.outputTokens,
    };
  }

  private present({ row, live }: Observed, origin: string): Task3dView {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const { status, progress } = shownState(row, live);
    return {
      task_id: row.task_id,
      object: '3d.generation',
      model: row.model,
      status,
      progress: `${progress}%`,
      files: row.file_name ? [{ url: `${origin}/v1/3d/files/${row.file_name}`, format: row.format }] : [],
      usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens, total_tokens: row.input_tokens + row.output_tokens },
      amount: (row.amount_micros / 1_000_000).toFixed(6),
      created_at: seconds(row.submitted_at),
      submit_time: seconds(row.submitted_at),
      finish_time: row.finished_at === null ? 0 : seconds(row.finished_at),
      failure_reason: row.failure_reason,
    };
  }
}

/** A task as observed: its row, and the provider's state while it is not finished. */
interface Observed {
  row: Task3dRow;
  live?: { status: string; progress: number };
}

/** The status and progress shown: stored once finished (100% either way, so progress never goes back), otherwise the provider's. */
function shownState(row: Task3dRow, live: Observed['live']): { status: string; progress: number } {
  if (row.status !== null) return { status: row.status, progress: 100 };
  return live ?? { status: 'SUBMITTED', progress: 0 };
}

// 3D generation task rules: create, derive the state from elapsed time, finish once (file written, call charged), and present the spec's shape.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { publicId } from '../ids.ts';
import { meshForPrompt } from '../providers/simulate/mesh3d/geometry.ts';
import { toGlb } from '../providers/simulate/mesh3d/glb.ts';
import { toObj } from '../providers/simulate/mesh3d/obj.ts';
import { toStl } from '../providers/simulate/mesh3d/stl.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import type { Db } from '../storage/database.ts';
import type { Task3dOutcome, Task3dRow, Tasks3dRepo } from '../storage/tasks3d-repo.ts';
import type { Clock } from '../time.ts';
import type { BillingService } from './billing.ts';
import { notFound } from '../errors.ts';
import { readGeneratedFile, storeGeneratedFile } from './generated-files.ts';
import { STORAGE_LIMITS, type StorageLimits } from './storage-limits.ts';
import type { Principal } from './tokens.ts';

/** Output formats and their content types. */
export const TASK3D_FORMATS = { glb: 'model/gltf-binary', obj: 'model/obj', stl: 'model/stl' } as const;
export type Task3dFormat = keyof typeof TASK3D_FORMATS;

/** Result files live in `<dataDir>/files/3d/`. */
const FILES_KIND = '3d';

/** The test value: a prompt containing this word (any case) ends in FAILURE. */
export const FAILURE_WORD = 'fail';

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
  /** Time from submission to the result. */
  durationMs: number;
  /** How long tasks are kept and how many go per pruning step (default `STORAGE_LIMITS`). */
  limits?: Pick<StorageLimits, 'tasks3dMaxAgeMs' | 'pruneBatch'>;
  /** A pruning step that failed (retried at the next creation; the new task is made regardless). */
  onError?: (error: unknown) => void;
}

export class Tasks3dService {
  private readonly deps: Tasks3dDeps;
  constructor(deps: Tasks3dDeps) {
    this.deps = deps;
  }

  create(principal: Principal, input: Task3dInput, origin: string) {
    this.prune();
    const row = this.deps.repo.insert({
      task_id: publicId('task'),
      account_id: principal.accountId,
      token_id: principal.tokenId,
      model: input.model,
      prompt: input.prompt,
      image_url: input.imageUrl,
      format: input.format,
      submitted_at: this.deps.clock.now(),
      duration_ms: this.deps.durationMs,
      input_tokens: countTokens(input.prompt) + (input.imageUrl ? 258 : 0),
    });
    return this.present(this.observe(row), origin);
  }

  /** A task of the account, finished first when its time is up; another account's id is unknown. */
  get(accountId: number, taskId: string, origin: string) {
    const row = this.deps.repo.find(accountId, taskId);
    if (!row || this.expired(row)) throw notFound(`Task ${taskId} does not exist`, 'task_id');
    return this.present(this.observe(row), origin);
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

  /** Deletes the oldest expired tasks and their files: one bounded batch; a failure is reported, never thrown. */
  private prune(): void {
    try {
      for (const row of this.deps.repo.oldest(this.limits().pruneBatch)) {
        if (!this.expired(row)) break;
        if (row.file_name) rmSync(path.join(this.deps.dataDir, 'files', FILES_KIND, row.file_name), { force: true });
        this.deps.repo.delete(row.task_id);
      }
    } catch (error) {
      this.deps.onError?.(error);
    }
  }

  private limits() {
    return this.deps.limits ?? STORAGE_LIMITS;
  }

  /**
   * Finishes a task whose time is up, exactly once, and returns the stored row. The outcome, the charge (priced by
   * billing, so a model alias costs what its model costs) and the amount shown are written in one transaction.
   */
  private observe(row: Task3dRow): Task3dRow {
    if (row.status !== null || this.deps.clock.now() - row.submitted_at < row.duration_ms) return row;
    const outcome = this.outcome(row);
    const finished = this.deps.db.transaction(() => {
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
    })();
    if (!finished && outcome.file_name) rmSync(path.join(this.deps.dataDir, 'files', FILES_KIND, outcome.file_name), { force: true });
    return this.deps.repo.findById(row.task_id)!;
  }

  private outcome(row: Task3dRow): Task3dOutcome {
    const finishedAt = row.submitted_at + row.duration_ms;
    if (row.prompt.toLowerCase().includes(FAILURE_WORD)) {
      return {
        status: 'FAILURE',
        failure_reason: `generation failed: the prompt contains the test value "${FAILURE_WORD}"`,
        finished_at: finishedAt,
        file_name: null,
        output_tokens: 0,
      };
    }
    const mesh = meshForPrompt(row.prompt || row.image_url || row.task_id);
    const writers = { glb: toGlb, obj: toObj, stl: toStl };
    const bytes = writers[row.format](mesh, row.prompt.slice(0, 40) || 'mesh');
    return {
      status: 'SUCCESS',
      failure_reason: null,
      finished_at: finishedAt,
      file_name: storeGeneratedFile(this.deps.dataDir, FILES_KIND, row.format, bytes),
      output_tokens: mesh.indices.length / 3,
    };
  }

  private present(row: Task3dRow, origin: string) {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const { status, progress } = stateOf(row, this.deps.clock.now());
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

/**
 * The status and progress of a task: stored once finished (100% either way, so progress never goes back),
 * otherwise derived from the elapsed share of its time.
 */
export function stateOf(row: Task3dRow, now: number): { status: string; progress: number } {
  if (row.status !== null) return { status: row.status, progress: 100 };
  const share = (now - row.submitted_at) / Math.max(1, row.duration_ms);
  if (share < 0.1) return { status: 'SUBMITTED', progress: 0 };
  if (share < 0.25) return { status: 'QUEUED', progress: 0 };
  return { status: 'IN_PROGRESS', progress: Math.min(99, Math.max(1, Math.floor(((share - 0.25) / 0.75) * 100))) };
}

// Repository of 3D generation tasks; reads are scoped by account, and finishing a task happens once.
import type { Db } from './database.ts';

/** A stored task. `status` is null until the task has finished. */
export interface Task3dRow {
  id: number;
  task_id: string;
  /** The provider's id of the task. */
  upstream_id: string;
  account_id: number;
  token_id: string;
  model: string;
  prompt: string;
  image_url: string | null;
  format: 'glb' | 'obj' | 'stl';
  submitted_at: number;
  duration_ms: number;
  status: 'SUCCESS' | 'FAILURE' | null;
  failure_reason: string | null;
  finished_at: number | null;
  file_name: string | null;
  input_tokens: number;
  output_tokens: number;
  amount_micros: number;
  /** The platform channel the task was created on; null: the call's own bundle (the simulator). */
  channel_id: string | null;
}

/** A stored task with the name of its account, as the admin API lists it. */
export type ListedTask3dRow = Task3dRow & { account_name: string };

/** A task with its account's name, by a correlated subquery (every task has its account; see tokens-repo.ts on the JOIN). */
const LISTED = 'SELECT t.*, (SELECT a.name FROM accounts a WHERE a.id = t.account_id) AS account_name FROM tasks3d t';

export type NewTask3d = Omit<
  Task3dRow,
  'id' | 'status' | 'failure_reason' | 'finished_at' | 'file_name' | 'output_tokens' | 'amount_micros' | 'channel_id'
> & { channel_id?: string | null };

/** What finishing writes (the amount is set apart, by `setAmount`, once the call is charged). */
export interface Task3dOutcome {
  status: 'SUCCESS' | 'FAILURE';
  failure_reason: string | null;
  finished_at: number;
  file_name: string | null;
  output_tokens: number;
}

export class Tasks3dRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(task: NewTask3d): Task3dRow {
    this.db
      .prepare(
        `INSERT INTO tasks3d (task_id, upstream_id, account_id, token_id, model, prompt, image_url, format, submitted_at, duration_ms, input_tokens, channel_id)
         VALUES (@task_id, @upstream_id, @account_id, @token_id, @model, @prompt, @image_url, @format, @submitted_at, @duration_ms, @input_tokens, @channel_id)`,
      )
      .run({ ...task, channel_id: task.channel_id ?? null });
    return this.findById(task.task_id)!;
  }

  find(accountId: number, taskId: string): Task3dRow | undefined {
    return this.db.prepare('SELECT * FROM tasks3d WHERE account_id = ? AND task_id = ?').get(accountId, taskId) as Task3dRow | undefined;
  }

  findById(taskId: string): Task3dRow | undefined {
    return this.db.prepare('SELECT * FROM tasks3d WHERE task_id = ?').get(taskId) as Task3dRow | undefined;
  }

  /**
   * A page of the tasks submitted at or after `since`, newest first, of one account or of all (`accountId` undefined),
   * with the total they count.
   */
  page(accountId: number | undefined, since: number, limit: number, offset: number): { total: number; rows: ListedTask3dRow[] } {
    const where = accountId === undefined ? 'WHERE t.submitted_at >= ?' : 'WHERE t.account_id = ? AND t.submitted_at >= ?';
    const args = accountId === undefined ? [since] : [accountId, since];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM tasks3d t ${where}`).get(...args) as { total: number };
    const rows = this.db.prepare(`${LISTED} ${where} ORDER BY t.id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as ListedTask3dRow[];
    return { total, rows };
  }

  /** A task of any account, with its account's name. */
  findListed(taskId: string): ListedTask3dRow | undefined {
    return this.db.prepare(`${LISTED} WHERE t.task_id = ?`).get(taskId) as ListedTask3dRow | undefined;
  }

  findByFile(fileName: string): Task3dRow | undefined {
    return this.db.prepare('SELECT * FROM tasks3d WHERE file_name = ?').get(fileName) as Task3dRow | undefined;
  }

  /** Records the outcome only if the task has not finished yet; returns whether this call finished it. */
  finish(taskId: string, outcome: Task3dOutcome): boolean {
    return (
      this.db
        .prepare(
          `UPDATE tasks3d SET status = @status, failure_reason = @failure_reason, finished_at = @finished_at, file_name = @file_name,
             output_tokens = @output_tokens
           WHERE task_id = @task_id AND status IS NULL`,
        )
        .run({ task_id: taskId, ...outcome }).changes > 0
    );
  }

  /** Records the amount charged for a finished task. */
  setAmount(taskId: string, amountMicros: number): void {
    this.db.prepare('UPDATE tasks3d SET amount_micros = ? WHERE task_id = ?').run(amountMicros, taskId);
  }

  /** The oldest tasks (at most `limit`, by id): their ids, submission times and result files. */
  oldest(limit: number): Pick<Task3dRow, 'task_id' | 'submitted_at' | 'file_name'>[] {
    return this.db.prepare('SELECT task_id, submitted_at, file_name FROM tasks3d ORDER BY id LIMIT ?').all(limit) as Pick<
      Task3dRow,
      'task_id' | 'submitted_at' | 'file_name'
    >[];
  }

  delete(taskId: string): void {
    this.db.prepare('DELETE FROM tasks3d WHERE task_id = ?').run(taskId);
  }
}

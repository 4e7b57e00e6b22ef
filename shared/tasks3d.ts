// The 3D task contract: a task as the public API answers it, and as the console's admin API lists it.

/** A 3D task in the shape of `GET /v1/3d/generations/{task_id}` (docs/3d-tasks.md). Times are epoch seconds. */
export interface Task3dView {
  task_id: string;
  object: '3d.generation';
  model: string;
  /** `SUBMITTED`, `IN_PROGRESS`, `SUCCESS` or `FAILURE` (a relayed upstream may name others while running). */
  status: string;
  /** `"<n>%"`. */
  progress: string;
  files: { url: string; format: string }[];
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
  amount: string;
  created_at: number;
  submit_time: number;
  finish_time: number;
  failure_reason: string | null;
}

/** A 3D task as the admin API lists it: the public shape plus who made it and what it asked for. */
export interface AdminTask3d extends Task3dView {
  account: string;
  prompt: string;
  image_url: string | null;
  format: string;
}

/** Filters of the admin 3D task list (`p` from 1, `page_size` up to 100). */
export interface Tasks3dQuery {
  p?: number;
  page_size?: number;
  /** Exact account name; empty or absent: every account. */
  account?: string;
}

// The Batch object as the API shows it: a new batch's fields, and at its end the request counts and the usage summed from its answered lines.
import type { BatchCreate } from '../protocols/openai/inbound/batches.ts';
import type { BatchResultRow } from '../storage/batches-repo.ts';
import { DAY_MS } from '../time.ts';

export type Json = Record<string, unknown>;

/** How long a batch may take (its `completion_window`). */
const WINDOW_MS = DAY_MS;

/** A new batch of `asked`, created at `now` (epoch ms): `validating`, nothing counted yet. */
export function newBatch(id: string, asked: BatchCreate, now: number): Json {
  return {
    id,
    object: 'batch',
    endpoint: asked.endpoint,
    model: null,
    errors: null,
    input_file_id: asked.inputFileId,
    completion_window: asked.completionWindow,
    status: 'validating',
    output_file_id: null,
    error_file_id: null,
    created_at: seconds(now),
    in_progress_at: null,
    expires_at: seconds(now + WINDOW_MS),
    finalizing_at: null,
    completed_at: null,
    failed_at: null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    request_counts: { total: 0, completed: 0, failed: 0 },
    usage: usageOf(0, 0),
    metadata: asked.metadata,
    ...(asked.outputExpiresAfterSeconds !== undefined && {
      output_expires_after: { anchor: 'created_at', seconds: asked.outputExpiresAfterSeconds },
    }),
  };
}

/** Epoch ms as the API's epoch seconds. */
export function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** The request counts of a batch's results so far, of `total` lines. */
export function countsOf(results: readonly BatchResultRow[], total: number) {
  const completed = results.filter((result) => result.ok === 1).length;
  return { total, completed, failed: results.length - completed };
}

function usageOf(input: number, output: number) {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** The tokens the answered lines report (chat and embeddings `prompt_tokens`/`completion_tokens`, responses `input_tokens`/`output_tokens`). */
export function usageTotal(outputs: readonly BatchResultRow[]) {
  let input = 0;
  let output = 0;
  for (const result of outputs) {
    const usage = ((JSON.parse(result.result_json) as { response?: { body?: { usage?: Json } } }).response?.body?.usage ?? {}) as Json;
    input += Number(usage['prompt_tokens'] ?? usage['input_tokens'] ?? 0) || 0;
    output += Number(usage['completion_tokens'] ?? usage['output_tokens'] ?? 0) || 0;
  }
  return usageOf(input, output);
}

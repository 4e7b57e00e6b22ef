// Test helper: batch input files and a batch run to a status by moving the gateway's manual clock, through the openai SDK.
import type OpenAI from 'openai';
import { toFile } from 'openai';
import type { ManualClock } from './clock.ts';

/** The lines as a JSONL text (a string line is written as it is, to send a broken one). */
export const jsonl = (lines: readonly unknown[]) =>
  lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';

/** Moves the clock a quarter second at a time until the batch reaches `status`; the distinct statuses seen on the way. */
export async function runUntil(client: OpenAI, clock: ManualClock, id: string, status: string) {
  const seen = [(await client.batches.retrieve(id)).status as string];
  for (let step = 0; step < 2000; step++) {
    clock.advance(250);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const batch = await client.batches.retrieve(id);
    if (seen.at(-1) !== batch.status) seen.push(batch.status);
    if (batch.status === status) return { batch, seen };
  }
  throw new Error(`batch ${id} never reached ${status}: ${seen.join(' → ')}`);
}

/** Uploads `text` as a file of `purpose` (a batch input by default). */
export async function upload(client: OpenAI, text: string, purpose: 'batch' | 'user_data' = 'batch') {
  return client.files.create({ file: await toFile(Buffer.from(text), 'input.jsonl'), purpose });
}

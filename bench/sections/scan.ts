// The background scan: wall time to refresh 10,000 non-terminal assets against a reviewer answering after a fixed latency, and how many calls it had in flight at most.
import { startChild } from '../lib/processes.ts';

/** What one scan measured. */
export interface ScanResult {
  assets: number;
  reviewerMs: number;
  wallMs: number;
  checked: number;
  errors: number;
  /** The most reviewer calls in flight at once. */
  concurrency: number;
}

/** Seeds `assets` assets as Processing and times one scan of them (on the bench's Gatehouse server `script`). */
export async function benchScan(
  assets: number,
  reviewerMs: number,
  script = new URL('../servers/gatehouse.ts', import.meta.url),
): Promise<ScanResult> {
  const child = await startChild<{ url: string }>(script, [
    JSON.stringify({ journal: true, seed: { assets, status: 'Processing' }, reviewerMs }),
  ]);
  try {
    const reply = child.next('scan');
    child.process.send({ cmd: 'scan' });
    const { scan } = (await reply) as { scan: Omit<ScanResult, 'assets' | 'reviewerMs'> };
    return { assets, reviewerMs, ...scan };
  } finally {
    await child.stop();
  }
}

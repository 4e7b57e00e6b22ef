// Unit tests of the CLI bundle launcher's chunks (bin/cli-bundle.mjs): a chunk imported again, at once or later, gives the same module, and one that failed gives the same error, never the checkout's "Cannot find module".
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

type RunBundle = (bundle: { file: string; chunks: string[]; encoding: BufferEncoding }, entry: string, args: string[]) => boolean;
const { runBundle } = (await import(pathToFileURL(path.join(import.meta.dirname, '../../../bin/cli-bundle.mjs')).href)) as {
  runBundle: RunBundle;
};

/** What the fake entries hand back to the test (runBundle returns only whether the bundle ran). */
const RESULT = Symbol.for('gatehouse.test.cli-bundle-chunks');
type Outcome = { status: 'fulfilled'; value: unknown } | { status: 'rejected'; reason: unknown };
const results = globalThis as unknown as Record<symbol, Promise<Outcome[]>>;

describe('the CLI bundle launcher', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cli-bundle-unit-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  let made = 0;

  /**
   * Runs a bundle whose entry imports `chunk` as Rolldown writes an `import()` (a require at every call): twice in one
   * tick, then once more after a timer; resolves with the three outcomes.
   */
  async function importThrice(chunk: string): Promise<Outcome[]> {
    const dir = path.join(scratch, String(made++));
    mkdirSync(dir);
    const entryName = 'main-fake.cjs';
    const chunkName = 'main-fake-part.cjs';
    writeFileSync(path.join(dir, chunkName), chunk);
    writeFileSync(
      path.join(dir, entryName),
      `const load = () => Promise.resolve().then(() => require('./${chunkName}'));
exports.helper = 'shared';
globalThis[Symbol.for('gatehouse.test.cli-bundle-chunks')] = Promise.allSettled([load(), load()]).then(async (first) => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return [...first, ...(await Promise.allSettled([load()]))];
});
`,
    );
    const argv = process.argv;
    try {
      assert.equal(runBundle({ file: path.join(dir, entryName), chunks: [chunkName], encoding: 'utf8' }, 'entry.ts', ['test']), true);
    } finally {
      process.argv = argv;
    }
    return await results[RESULT]!;
  }

  test('a chunk imported twice in one tick and again later runs once, and every import gets its exports', async () => {
    const counter = Symbol.for('gatehouse.test.cli-bundle-chunks.runs');
    const runs = globalThis as unknown as Record<symbol, number>;
    runs[counter] = 0;
    const outcomes = await importThrice(
      `globalThis[Symbol.for('gatehouse.test.cli-bundle-chunks.runs')] += 1;
exports.value = 'from the chunk, with the ' + require('./main-fake.cjs').helper + ' helper';
`,
    );
    assert.equal(runs[counter], 1, 'the chunk ran once');
    assert.deepEqual(
      outcomes.map((outcome) => (outcome.status === 'fulfilled' ? (outcome.value as { value: string }).value : outcome.reason)),
      Array(3).fill('from the chunk, with the shared helper'),
    );
    assert.equal((outcomes[0] as { value: unknown }).value, (outcomes[2] as { value: unknown }).value, 'the same module each time');
  });

  test('a chunk that throws gives its own error at every import, never a "Cannot find module" from the checkout', async () => {
    const outcomes = await importThrice(`throw new Error('the chunk failed');\n`);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.match(String((outcome as { reason: Error }).reason.message), /^the chunk failed$/);
    }
    assert.equal(
      (outcomes[0] as { reason: unknown }).reason,
      (outcomes[2] as { reason: unknown }).reason,
      'the same error, kept from the one run',
    );
  });
});

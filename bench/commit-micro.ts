// `node bin/run-ts.mjs bench/commit-micro.ts [checkout] [calls per commit] [commits] [amount per call]`: the CPU of one bookkeeping group commit (K calls charged and counted) with a checkout's storage, on one thread.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const perCommit = Number(process.argv[3] ?? 1);
const commits = Number(process.argv[4] ?? 5000);
/** Micro-units each call is charged (0: a free or unpriced model, as the relay bench's upstream model is). */
const amount = Number(process.argv[5] ?? 30);
/** Commits made before the timing starts (statements compiled, the optimizing compilers done). */
const WARM_UP = 1000;

const { openDatabase } = await import(`${root}/electron/gateway/storage/database.ts`);
const { GroupCommit } = await import(`${root}/electron/gateway/storage/group-commit.ts`);
const { UsageRepo } = await import(`${root}/electron/gateway/storage/usage-repo.ts`);
const { UsageStatsRepo } = await import(`${root}/electron/gateway/storage/usage-stats-repo.ts`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-commit-micro-'));
const db = openDatabase(dir);
try {
  db.exec(`INSERT INTO accounts (id, name, created_at) VALUES (1, 'local', 0);
    INSERT INTO tokens (token_id, account_id, name, token_hash, token_hint, created_at) VALUES ('tok', 1, 'bench', 'hash', 'hint', 0)`);
  const usage = new UsageRepo(db);
  const stats = new UsageStatsRepo(db);
  const writes = new GroupCommit(db, (error: unknown) => {
    throw error;
  });
  const at = Date.now();
  const day = new Date(at).toISOString().slice(0, 10);
  // The calls of one commit: one token and model, their latency buckets mixed (as a c=32 commit's are).
  const records = Array.from({ length: perCommit }, (_, index) => ({
    account_id: 1,
    token_id: 'tok',
    endpoint: '/v1/chat/completions',
    model: 'sim-chat',
    input_tokens: 10,
    output_tokens: 20 + index,
    amount_micros: amount,
    created_at: at,
  }));
  const calls = Array.from({ length: perCommit }, (_, index) => ({
    day,
    account_id: 1,
    token_id: 'tok',
    model: 'sim-chat',
    bucket: index % 3,
    error: false,
  }));
  const commit = () =>
    writes.commit(() => {
      // Inside the commit's transaction, as the charges' joined write records them (`appendAll`: no savepoint of its own; older checkouts: `recordAll`).
      (usage.appendAll ?? usage.recordAll).call(usage, records);
      stats.countCalls(calls);
    });
  for (let index = 0; index < WARM_UP; index++) await commit();
  const start = process.cpuUsage();
  for (let index = 0; index < commits; index++) await commit();
  const used = process.cpuUsage(start);
  const perCommitUs = (used.user + used.system) / commits;
  console.log(
    `${path.basename(root)}, ${perCommit} calls per commit of ${amount} micro-units each: ${perCommitUs.toFixed(1)} µs CPU per commit (${(perCommitUs / perCommit).toFixed(1)} per call), of it system ${(used.system / commits).toFixed(1)}`,
  );
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

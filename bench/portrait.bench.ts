// Benchmark of the portrait endpoints, reported as ratios to a baseline round trip (GET /healthz) measured in the same process, and the journal's cost as on/off.
import { startGateway, request } from '../tests/helpers/gateway.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 400);
const ASSETS = Number(process.env['BENCH_ASSETS'] ?? 5000);

/** Mean milliseconds per call of `fn` over ROUNDS sequential calls, after a short warm-up. */
async function measure(fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1e6 / ROUNDS;
}

const gw = await startGateway({ refreshIntervalMs: 3_600_000, simReviewMs: 0 });
try {
  const auth = { token: gw.token };
  const group = (await request(`${gw.url}/v1/portrait/groups`, 'POST', { ...auth, body: { name: 'bench' } })).body.data.group_id;
  const ids: string[] = [];
  for (let i = 0; i < ASSETS; i++) {
    const body = { group_id: group, url: `https://cdn.example.com/${i}.png`, asset_type: 'Image' };
    ids.push((await request(`${gw.url}/v1/portrait/assets`, 'POST', { ...auth, body })).body.data.asset_id);
  }
  const baseline = await measure(() => request(`${gw.url}/healthz`, 'GET'));
  const cases: [string, (i: number) => Promise<unknown>][] = [
    ['create group', (i) => request(`${gw.url}/v1/portrait/groups`, 'POST', { ...auth, body: { name: `g${i}` } })],
    [
      'create asset',
      (i) =>
        request(`${gw.url}/v1/portrait/assets`, 'POST', {
          ...auth,
          body: { group_id: group, url: `https://b.example/${i}.png`, asset_type: 'Image' },
        }),
    ],
    ['query asset (refresh)', (i) => request(`${gw.url}/v1/portrait/assets/${ids[i % ids.length]}`, 'GET', auth)],
    ['list assets, page of 100', (i) => request(`${gw.url}/v1/portrait/assets?p=${(i % 50) + 1}&page_size=100`, 'GET', auth)],
    ['list assets by status', () => request(`${gw.url}/v1/portrait/assets?status=Active&page_size=20`, 'GET', auth)],
  ];
  console.log(`baseline GET /healthz: ${baseline.toFixed(3)} ms per call (${ROUNDS} rounds, ${ASSETS} assets stored)`);
  for (const [name, fn] of cases) {
    const ms = await measure(fn);
    console.log(`${name.padEnd(28)} ${(ms / baseline).toFixed(2)}× baseline`);
  }
  const scanStart = process.hrtime.bigint();
  const report = await gw.gateway.context.scheduler.runNow();
  const scanMs = Number(process.hrtime.bigint() - scanStart) / 1e6;
  console.log(
    `background scan of ${report.checked} pending assets: ${(scanMs / Math.max(1, report.checked) / baseline).toFixed(2)}× baseline per asset`,
  );
} finally {
  await gw.stop();
}

// The request journal's cost: the same calls on a second gateway with the journal off, as a ratio to the journal on.
const quiet = await startGateway({ refreshIntervalMs: 3_600_000, simReviewMs: 0, journal: false });
const loud = await startGateway({ refreshIntervalMs: 3_600_000, simReviewMs: 0 });
try {
  const perCall = async (gateway: typeof quiet) => {
    const auth = { token: gateway.token };
    const group = (await request(`${gateway.url}/v1/portrait/groups`, 'POST', { ...auth, body: { name: 'bench' } })).body.data.group_id;
    return measure((i) =>
      request(`${gateway.url}/v1/portrait/assets`, 'POST', {
        ...auth,
        body: { group_id: group, url: `https://j.example/${i}.png`, asset_type: 'Image' },
      }),
    );
  };
  const off = await perCall(quiet);
  const on = await perCall(loud);
  console.log(`create asset, journal on      ${(on / off).toFixed(2)}× the same call with --journal off`);
} finally {
  await Promise.all([quiet.stop(), loud.stop()]);
}

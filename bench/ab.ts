// `node bin/run-ts.mjs bench/ab.ts <simulate-json|simulate-sse|simulate-messages-sse|simulate-gemini-sse|simulate-completions-sse|simulate-responses-sse|relay-json|relay-sse> DIR...`: the Gatehouse of each checkout (or a floor, or aimock) under one simulated (or relayed) chat case at c=32 (or `AB_CONCURRENCY`), in short alternating windows, and each one's main-thread CPU per call (and the kernel's part of it), its journal thread's and its whole process's (and the upstream's, relayed).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatBody, OTHER_PROTOCOL_STREAMS, type BenchAsk } from './lib/fixtures.ts';
import { closeClients, loadClient, runLoad, type RequestSpec } from './lib/load.ts';
import { startAimock } from './lib/aimock.ts';
import { cpuMsOf, kernelMsOf, startChild, syscallsOf, threadCpuMsOf, type Child } from './lib/processes.ts';
import { JIT_WARMUP_CONCURRENCY, JIT_WARMUP_MS, turnOrder } from './lib/rounds.ts';
import { spreadOf } from './lib/stats.ts';
import { simulatedTextOf } from './lib/simulated-text.ts';

type Ready = { url: string; token?: string };

/**
 * Why: a change of a few µs per call on the event loop is lost between two `bench:profile` runs minutes apart on a
 * shared machine. Here every checkout's process runs at once, warmed up alike, and they take turns in windows of
 * `AB_WINDOW_MS` (2 s), the order shuffled every round, for `AB_ROUNDS` (12) rounds: a busy spell slows the windows of
 * one round alike, so compare the quartiles, and the rounds pair by pair.
 */
const [caseName = 'simulate-sse', ...dirs] = process.argv.slice(2);
/** The same prompt streamed in the other protocols (see OTHER_PROTOCOL_STREAMS). */
const OTHER_STREAMS: Record<string, BenchAsk> = {
  'simulate-messages-sse': OTHER_PROTOCOL_STREAMS.anthropic,
  'simulate-gemini-sse': OTHER_PROTOCOL_STREAMS.gemini,
  'simulate-completions-sse': OTHER_PROTOCOL_STREAMS.completions,
  'simulate-responses-sse': OTHER_PROTOCOL_STREAMS.responses,
};
if (!(['simulate-json', 'simulate-sse', 'relay-json', 'relay-sse'].includes(caseName) || caseName in OTHER_STREAMS) || dirs.length === 0) {
  throw new Error(
    `usage: bench/ab.ts <simulate-json|simulate-sse|relay-json|relay-sse|${Object.keys(OTHER_STREAMS).join('|')}> CHECKOUT_DIR|bare:node|bare:fastify|bare:relay|aimock...`,
  );
}
const other = OTHER_STREAMS[caseName];
/** `relay-json`, `relay-sse`: every checkout relays to one baseline upstream (this checkout's), through a channel serving every model. */
const relay = caseName === 'relay-json' || caseName === 'relay-sse';
const rounds = Number(process.env['AB_ROUNDS'] ?? 12);
const windowMs = Number(process.env['AB_WINDOW_MS'] ?? 2000);
/** `AB_CONCURRENCY` (32): the calls in flight; at 1, each contender's p50 and its added latency over the first contender's, round by round, tell the relayed c=1 figure apart from the machine's moods. */
const concurrency = Number(process.env['AB_CONCURRENCY'] ?? 32);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('AB_CONCURRENCY must be a whole number of calls, 1 or more');
const journal = process.env['BENCH_JOURNAL'] !== 'off';

/** `bare:node` and `bare:fastify` in place of a checkout (simulate-json only): this checkout's floors answering the same JSON, measured alike. */
const BARE = new Map([
  ['bare:node', './servers/bare-node-simulate.ts'],
  ['bare:fastify', './servers/bare-fastify.ts'],
]);
if (dirs.some((dir) => BARE.has(dir)) && caseName !== 'simulate-json')
  throw new Error('bare:node and bare:fastify answer simulate-json only');
/** `bare:relay` in place of a checkout (relay-json and relay-sse): the bare node:http + undici relay, the relay section's floor, to the same upstream. */
const BARE_RELAY = 'bare:relay';
if (dirs.includes(BARE_RELAY) && !relay) throw new Error('bare:relay relays relay-json and relay-sse only');
/** `aimock` in place of a checkout (simulate-json and simulate-sse, beside one checkout at least): aimock answering the first checkout's simulated text, as the bench's simulate section runs it. */
if (dirs.includes('aimock') && !['simulate-json', 'simulate-sse'].includes(caseName))
  throw new Error('aimock answers simulate-json and simulate-sse only');
/** A contender's process, where it listens, and the token it asks for. */
interface Server {
  pid: number;
  url: string;
  token: string | undefined;
  stop(): Promise<void>;
}
const ofChild = (child: Child<Ready>): Server => ({
  pid: child.process.pid!,
  url: child.ready.url,
  token: child.ready.token,
  stop: () => child.stop(),
});
const upstream = relay ? await startChild<Ready>(new URL('./servers/upstream.ts', import.meta.url)) : undefined;
const started = new Map<string, Server>();
for (const dir of dirs) {
  if (dir === 'aimock') continue;
  if (dir === BARE_RELAY) {
    started.set(
      dir,
      ofChild(await startChild<Ready>(new URL('./servers/bare-node-relay.ts', import.meta.url), [`${upstream!.ready.url}/v1`])),
    );
    continue;
  }
  const bare = BARE.get(dir);
  const url = bare ? new URL(bare, import.meta.url) : new URL(`file://${path.resolve(dir)}/bench/servers/gatehouse.ts`);
  const args = bare ? [] : [JSON.stringify({ journal, ...(upstream && { channelBaseUrl: `${upstream.ready.url}/v1` }) })];
  started.set(dir, ofChild(await startChild<Ready>(url, args)));
}
if (dirs.includes('aimock')) {
  const ours = [...started.values()].find((server) => server.token !== undefined);
  if (!ours) throw new Error('aimock needs a checkout beside it, whose simulated text it answers');
  const aimock = await startAimock(await simulatedTextOf(ours.url, { authorization: `Bearer ${ours.token}` }));
  if ('skipped' in aimock) throw new Error(`aimock: ${aimock.skipped}`);
  started.set('aimock', { pid: aimock.pid, url: aimock.url, token: undefined, stop: aimock.stop });
}
const servers = dirs.map((dir) => started.get(dir)!);
const specs: RequestSpec[] = servers.map((server) => ({
  method: 'POST',
  path: other ? other.path : '/v1/chat/completions',
  headers: server.token ? { authorization: `Bearer ${server.token}`, ...other?.headers } : {},
  body: other ? other.body : chatBody(caseName === 'simulate-sse' || caseName === 'relay-sse', relay ? 'bench-model' : 'sim-chat'),
}));
for (const [index, server] of servers.entries()) {
  await runLoad(server.url, specs[index]!, JIT_WARMUP_CONCURRENCY, Number(process.env['BENCH_JIT_WARMUP_MS'] ?? JIT_WARMUP_MS));
}

const main = dirs.map(() => [] as number[]);
const kernel = dirs.map(() => [] as number[]);
const writes = dirs.map(() => [] as number[]);
const rates = dirs.map(() => [] as number[]);
/** Each window's median latency, in ms. */
const p50s = dirs.map(() => [] as number[]);
/** The load generator's own CPU per call (this process, all its threads): what the contender leaves of the 2 cores' other one. */
const client = dirs.map(() => [] as number[]);
/** The journal thread's CPU per call (its thread is named `journal-worker`), and the whole process's. */
const journalThread = dirs.map(() => [] as number[]);
const whole = dirs.map(() => [] as number[]);
/** The upstream's CPU per call (relay cases): the same upstream serves every contender, so a contender that costs it more shows here. */
const upstreamCpu = dirs.map(() => [] as number[]);
for (let round = 0; round < rounds; round++) {
  for (const index of turnOrder(round, servers.length)) {
    const server = servers[index]!;
    const { pid } = server;
    const before = { cpu: cpuMsOf(pid, pid), kernel: kernelMsOf(pid, pid), writes: syscallsOf(pid, pid).writes };
    const threadsBefore = threadCpuMsOf(pid);
    const clientBefore = process.cpuUsage();
    const upstreamBefore = upstream ? cpuMsOf(upstream.process.pid!) : 0;
    const { requests, p50 } = await runLoad(server.url, specs[index]!, concurrency, windowMs);
    p50s[index]!.push(p50);
    // The load generator's CPU is taken around runLoad alone: the /proc reads before and after it are the bench's.
    const clientUsed = process.cpuUsage(clientBefore);
    const threadsAfter = threadCpuMsOf(pid);
    const sum = (threads: Map<string, number>) => [...threads.values()].reduce((total, ms) => total + ms, 0);
    const journalMs = (threadsAfter.get('journal-worker') ?? 0) - (threadsBefore.get('journal-worker') ?? 0);
    journalThread[index]!.push((Math.max(0, journalMs) * 1000) / requests);
    whole[index]!.push(((sum(threadsAfter) - sum(threadsBefore)) * 1000) / requests);
    main[index]!.push(((cpuMsOf(pid, pid) - before.cpu) * 1000) / requests);
    kernel[index]!.push(((kernelMsOf(pid, pid) - before.kernel) * 1000) / requests);
    writes[index]!.push((syscallsOf(pid, pid).writes - before.writes) / requests);
    rates[index]!.push((requests * 1000) / windowMs);
    client[index]!.push((clientUsed.user + clientUsed.system) / requests);
    if (upstream) upstreamCpu[index]!.push(((cpuMsOf(upstream.process.pid!) - upstreamBefore) * 1000) / requests);
  }
}

/** A quartile (or the lowest value) by its rank. */
const at = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * share)]!;
/** The median as the report takes it: the mean of the two middle values of an even count. */
const median = (values: number[]) => spreadOf(values).median;
const µs = (value: number) => value.toFixed(1);
console.log(
  `${caseName} c=${concurrency}, journal ${journal ? 'on' : 'off'}, ${rounds} rounds of ${windowMs} ms, ${loadClient()} client, load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
);
for (const [index, dir] of dirs.entries()) {
  const own = main[index]!;
  console.log(
    `${dir}: main thread µs per call min ${µs(at(own, 0))}, p25 ${µs(at(own, 0.25))}, median ${µs(median(own))}, p75 ${µs(at(own, 0.75))}` +
      ` (kernel median ${µs(median(kernel[index]!))}; journal thread median ${µs(median(journalThread[index]!))}, p25 ${µs(at(journalThread[index]!, 0.25))}; whole process median ${µs(median(whole[index]!))}, p25 ${µs(at(whole[index]!, 0.25))}; writes per call ${median(writes[index]!).toFixed(2)}; req/s median ${median(rates[index]!).toFixed(0)}; load generator median ${µs(median(client[index]!))} µs per call${upstream ? `; upstream median ${µs(median(upstreamCpu[index]!))} µs per call` : ''}); by round: ${own.map((value) => value.toFixed(0)).join(' ')}` +
      `; req/s by round: ${rates[index]!.map((value) => value.toFixed(0)).join(' ')}`,
  );
  // Added latency paired by round: each round's p50 against the first contender's in the same round.
  const added = p50s[index]!.map((value, round) => value - p50s[0]![round]!);
  console.log(
    `  p50 ms median ${median(p50s[index]!).toFixed(3)} (by round ${p50s[index]!.map((value) => value.toFixed(3)).join(' ')})` +
      (index === 0
        ? ''
        : `; over ${dirs[0]} by round: median ${median(added).toFixed(3)}, p25 ${at(added, 0.25).toFixed(3)}, p75 ${at(added, 0.75).toFixed(3)}`),
  );
}
await closeClients();
for (const server of servers) await server.stop();
await upstream?.stop();

// `npm run bench:profile -- <case> [c] [s]`: one Gatehouse under one case's load, profiled (the inspector's CPU profiler, over the load only), then its hottest files and functions by self time; with BENCH_PROFILE=alloc, the bytes each function allocated per call instead.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cpuMsOf, kernelMsOf, syscallsOf, threadCpuMsOf, threadSwitchesOf } from './lib/processes.ts';
import { chatBody, OTHER_PROTOCOL_STREAMS, type BenchAsk } from './lib/fixtures.ts';
import { closeClients, loadClient, runLoad, type RequestSpec } from './lib/load.ts';
import { JIT_WARMUP_CONCURRENCY, JIT_WARMUP_MS } from './lib/rounds.ts';
import { startChild } from './lib/processes.ts';
import { BENCH_CHANNEL_KEY } from './sections/relay.ts';

type Ready = { url: string; token?: string };
const cases: Record<string, { relay: boolean; keyed?: boolean; spec: (token: string) => RequestSpec }> = {
  'relay-json': { relay: true, spec: (token) => chat(token, false, 'bench-model') },
  'relay-json-keyed': { relay: true, keyed: true, spec: (token) => chat(token, false, 'bench-model') },
  'relay-sse': { relay: true, spec: (token) => chat(token, true, 'bench-model') },
  'simulate-json': { relay: false, spec: (token) => chat(token, false, 'sim-chat') },
  'simulate-sse': { relay: false, spec: (token) => chat(token, true, 'sim-chat') },
  // The same simulated answer streamed as the other protocols' clients ask for it (see OTHER_PROTOCOL_STREAMS).
  'simulate-anthropic-sse': { relay: false, spec: (token) => ask(token, OTHER_PROTOCOL_STREAMS.anthropic) },
  'simulate-gemini-sse': { relay: false, spec: (token) => ask(token, OTHER_PROTOCOL_STREAMS.gemini) },
  'simulate-completions-sse': { relay: false, spec: (token) => ask(token, OTHER_PROTOCOL_STREAMS.completions) },
  'simulate-responses-sse': { relay: false, spec: (token) => ask(token, OTHER_PROTOCOL_STREAMS.responses) },
};
function chat(token: string, stream: boolean, model: string): RequestSpec {
  return ask(token, { path: '/v1/chat/completions', body: chatBody(stream, model) as Record<string, unknown> });
}
function ask(token: string, { path, body, headers }: BenchAsk): RequestSpec {
  return { method: 'POST', path, headers: { authorization: `Bearer ${token}`, ...headers }, body };
}

const name = process.argv[2] ?? 'relay-json';
const chosen = cases[name];
if (!chosen) throw new Error(`usage: bench/profile.ts <${Object.keys(cases).join('|')}> [concurrency] [seconds]`);
const concurrency = Number(process.argv[3] ?? 32);
const seconds = Number(process.argv[4] ?? 5);
const journal = process.env['BENCH_JOURNAL'] !== 'off';
/** `BENCH_PROFILE=promoted`: as alloc, but only the sampled objects no scavenge collected (promoted to the old generation, or alive at the end). */
const promoted = process.env['BENCH_PROFILE'] === 'promoted';
const alloc = process.env['BENCH_PROFILE'] === 'alloc' || promoted;
/** `BENCH_PROFILE=off`: no profiler, only the counts and the CPU time per call (what the profiler's own cost does not move). */
const profiled = process.env['BENCH_PROFILE'] !== 'off';

/** `BENCH_CHECKOUT=DIR`: the Gatehouse of another checkout (its bench/servers/gatehouse.ts) under this script's cases, say a BEFORE without a new case. */
const checkout = process.env['BENCH_CHECKOUT'];
const servers = checkout ? new URL(`file://${path.resolve(checkout)}/bench/servers/`) : new URL('./servers/', import.meta.url);
const upstream = chosen.relay ? await startChild<Ready>(new URL('./upstream.ts', servers)) : undefined;
const gatehouse = await startChild<Ready>(
  new URL('./gatehouse.ts', servers),
  [
    JSON.stringify({
      journal,
      ...(upstream && { channelBaseUrl: `${upstream.ready.url}/v1` }),
      ...(chosen.keyed && { channelKey: BENCH_CHANNEL_KEY }),
    }),
    // BENCH_NODE_ARGS: flags for the Gatehouse process alone (say `--trace-gc-nvp`), which NODE_OPTIONS does not take.
  ],
  (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
);
const spec = chosen.spec(gatehouse.ready.token!);
// First a JIT warm-up at c=32 (`BENCH_JIT_WARMUP_MS`), then the case's own warm-up at its concurrency (`BENCH_WARMUP_MS`).
await runLoad(gatehouse.ready.url, spec, JIT_WARMUP_CONCURRENCY, Number(process.env['BENCH_JIT_WARMUP_MS'] ?? JIT_WARMUP_MS));
await runLoad(gatehouse.ready.url, spec, concurrency, Number(process.env['BENCH_WARMUP_MS'] ?? 1000));
const before = syscallsOf(gatehouse.process.pid!);
const mainBefore = syscallsOf(gatehouse.process.pid!, gatehouse.process.pid!);
const threadsBefore = threadCpuMsOf(gatehouse.process.pid!);
const switchesBefore = threadSwitchesOf(gatehouse.process.pid!);
const cpuBefore = cpuNow(gatehouse.process.pid!);
if (profiled) {
  const started = gatehouse.next('profiling');
  gatehouse.process.send({ cmd: 'profile-start', alloc, promoted });
  await started;
}
const result = await runLoad(gatehouse.ready.url, spec, concurrency, seconds * 1000);
let file: string | undefined;
if (profiled) {
  const stopped = gatehouse.next('profile');
  gatehouse.process.send({ cmd: 'profile-stop' });
  file = ((await stopped) as { profile: string }).profile;
}
const after = syscallsOf(gatehouse.process.pid!);
const mainAfter = syscallsOf(gatehouse.process.pid!, gatehouse.process.pid!);
const threadsAfter = threadCpuMsOf(gatehouse.process.pid!);
const switchesAfter = threadSwitchesOf(gatehouse.process.pid!);
const cpuAfter = cpuNow(gatehouse.process.pid!);
/** The process's CPU so far (ms), its main thread's, and the kernel's part of the main thread's. */
function cpuNow(pid: number): { all: number; main: number; mainKernel: number } {
  return { all: cpuMsOf(pid), main: cpuMsOf(pid, pid), mainKernel: kernelMsOf(pid, pid) };
}
const perCall = (count: number) => (count / result.requests).toFixed(2);
console.log(
  `${name} c=${concurrency}, ${loadClient()} client: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, errors ${result.errors}`,
);
console.log(
  `system calls per call (the process's own count, so not moved by other load): ${perCall(after.reads - before.reads)} reads, ${perCall(after.writes - before.writes)} writes`,
);
console.log(
  `of them on the main thread (the event loop): ${perCall(mainAfter.reads - mainBefore.reads)} reads, ${perCall(mainAfter.writes - mainBefore.writes)} writes`,
);
const microsPerCall = (ms: number) => ((ms * 1000) / result.requests).toFixed(0);
console.log(
  `CPU time per call (${!profiled ? 'no profiler' : alloc ? 'allocation sampling on' : 'profiler on'}): ${microsPerCall(cpuAfter.all - cpuBefore.all)} µs, of it on the main thread ${microsPerCall(cpuAfter.main - cpuBefore.main)} µs (in the kernel ${microsPerCall(cpuAfter.mainKernel - cpuBefore.mainKernel)} µs)`,
);
const byThread = [...threadsAfter]
  .map(([thread, ms]) => [thread, ms - (threadsBefore.get(thread) ?? 0)] as const)
  .filter(([, ms]) => ms > 0)
  .sort((a, b) => b[1] - a[1]);
console.log(`of it by thread: ${byThread.map(([thread, ms]) => `${thread} ${microsPerCall(ms)} µs`).join(', ')}`);
// How often each thread went to sleep (and so was woken) per call, and was preempted: what a call costs beyond its own work.
const switches = [...switchesAfter]
  .map(([thread, after]) => {
    const before = switchesBefore.get(thread) ?? { voluntary: 0, involuntary: 0 };
    return [thread, after.voluntary - before.voluntary, after.involuntary - before.involuntary] as const;
  })
  .filter(([, voluntary, involuntary]) => voluntary + involuntary > 0)
  .sort((a, b) => b[1] - a[1]);
console.log(
  `wake-ups (and preemptions) per call by thread: ${switches.map(([thread, voluntary, involuntary]) => `${thread} ${perCall(voluntary)} (${perCall(involuntary)})`).join(', ')}`,
);
await closeClients();
await gatehouse.stop();
await upstream?.stop();

/** A script's URL shortened to its room. */
const short = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules|electron)\//, '$1/') || '(native)';
if (file === undefined) process.exit(0);
if (alloc) {
  reportAllocations(file, result.requests);
  process.exit(0);
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfCount = new Map<number, number>();
for (const sample of profile.samples) selfCount.set(sample, (selfCount.get(sample) ?? 0) + 1);
const total = profile.samples.length;
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, count] of selfCount) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const key = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + count);
  const where = short(url).replace(/^(node_modules\/(@[^/]+\/)?[^/]+).*/, '$1');
  byFile.set(where, (byFile.get(where) ?? 0) + count);
}
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, count]) => `${((100 * count) / total).toFixed(1).padStart(5)} %  ${key}`);
console.log(`\nself time by file (${total} samples):\n${top(byFile, 25).join('\n')}`);
console.log(`\nself time by function:\n${top(byFunction, 40).join('\n')}`);
// The profiler's signal reaches the thread as a system call returns, so that call takes the samples of the time before it.
console.log(`(a system call's self time here, writev's or read's, is wall time: the kernel's CPU per call is the figure above)`);
console.log(`\nprofile (open in Chrome DevTools): ${file}`);

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** Bytes allocated per call (sampled, collected objects included), by file and by function of the allocation. */
function reportAllocations(path: string, calls: number): void {
  const { head } = JSON.parse(readFileSync(path, 'utf8')) as { head: AllocationNode };
  const perFunction = new Map<string, number>();
  const perFile = new Map<string, number>();
  let all = 0;
  const visit = (node: AllocationNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = short(url);
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    perFunction.set(key, (perFunction.get(key) ?? 0) + node.selfSize);
    const room = where.replace(/^(node_modules\/(@[^/]+\/)?[^/]+).*/, '$1');
    perFile.set(room, (perFile.get(room) ?? 0) + node.selfSize);
    all += node.selfSize;
    node.children.forEach(visit);
  };
  visit(head);
  const rows = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, bytes]) => `${(bytes / calls).toFixed(0).padStart(7)} B  ${key}`);
  console.log(
    `\n${promoted ? 'promoted (outlived a scavenge)' : 'allocated'} per call: ${(all / calls).toFixed(0)} B (sampled)\n\nby file:\n${rows(perFile, 25).join('\n')}`,
  );
  console.log(`\nby function:\n${rows(perFunction, 40).join('\n')}`);
  console.log(`\nprofile (open in Chrome DevTools): ${path}`);
}

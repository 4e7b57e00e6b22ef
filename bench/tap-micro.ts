// `node bin/run-ts.mjs bench/tap-micro.ts DIR...`: the CPU of relay's usage tap, of the SSE reader under it and of the key scrub over the relay bench's answers, each checkout's in turn in one process.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHAT_COMPLETION_JSON, CHAT_STREAM_EVENTS } from './lib/fixtures.ts';
import { quantile } from './lib/stats.ts';
import { BENCH_CHANNEL_KEY } from './sections/relay.ts';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: bench/tap-micro.ts DIR...');
  process.exit(2);
}
/** Alternated rounds per checkout, and the answers read in each. */
const ROUNDS = 14;
const PER_ROUND = 20_000;

/** The relay bench's answers, as the upstream sends them: the 4 KB stream (23 events) and the 433-byte JSON completion. */
const stream = Buffer.from(CHAT_STREAM_EVENTS.join(''));
const json = Buffer.from(CHAT_COMPLETION_JSON);

interface Tap {
  pass(chunk: Uint8Array): Uint8Array;
  end(): Uint8Array;
  relayed(): unknown;
}
type Checkout = {
  dir: string;
  reader: () => { push(chunk: Uint8Array): unknown; end(): unknown };
  tap: (format: 'sse' | 'json') => Tap;
  scrubber: () => { pass(chunk: Uint8Array): Uint8Array; end(): Uint8Array };
};

const checkouts: Checkout[] = [];
for (const dir of dirs) {
  const root = pathToFileURL(`${resolve(dir)}/`);
  const { SseReader } = await import(new URL('shared/sse-reader.ts', root).href);
  const { UsageTap } = await import(new URL('electron/gateway/providers/relay/usage-tap.ts', root).href);
  const { RELAY_KINDS } = await import(new URL('electron/gateway/providers/relay/kinds.ts', root).href);
  const { keyScrubber } = await import(new URL('electron/gateway/providers/relay/key-scrub.ts', root).href);
  checkouts.push({
    dir,
    reader: () => new SseReader(),
    tap: (format) => new UsageTap(RELAY_KINDS.openai, format, false),
    scrubber: () => keyScrubber(BENCH_CHANNEL_KEY),
  });
}

/** ns per call of `work`, over PER_ROUND calls. */
function timed(work: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let index = 0; index < PER_ROUND; index++) work();
  return Number(process.hrtime.bigint() - start) / PER_ROUND;
}

const cases: [string, (checkout: Checkout) => () => unknown][] = [
  [
    'SSE reader, 4 KB stream',
    (checkout) => () => {
      const reader = checkout.reader();
      reader.push(stream);
      return reader.end();
    },
  ],
  ['usage tap, 4 KB stream', (checkout) => () => readWhole(checkout.tap('sse'), stream)],
  ['usage tap, 433-byte JSON', (checkout) => () => readWhole(checkout.tap('json'), json)],
  ["key scrub of the keyed contender's key, 4 KB stream", (checkout) => () => scrubWhole(checkout, stream)],
  ["key scrub of the keyed contender's key, 433-byte JSON", (checkout) => () => scrubWhole(checkout, json)],
];

function scrubWhole(checkout: Checkout, bytes: Uint8Array): number {
  const scrubber = checkout.scrubber();
  return scrubber.pass(bytes).length + scrubber.end().length;
}

function readWhole(tap: Tap, bytes: Uint8Array): unknown {
  tap.pass(bytes);
  tap.end();
  return tap.relayed();
}

for (const [name, work] of cases) {
  const times = checkouts.map(() => [] as number[]);
  // One untimed round first: the optimizing compilers done.
  for (const checkout of checkouts) timed(work(checkout));
  for (let round = 0; round < ROUNDS; round++) {
    // The order rotated every round, as ab.ts does.
    for (let turn = 0; turn < checkouts.length; turn++) {
      const index = (round + turn) % checkouts.length;
      times[index]!.push(timed(work(checkouts[index]!)));
    }
  }
  console.log(
    `${name}: ${checkouts.map((checkout, index) => `${checkout.dir} ${quantile(times[index]!, 0.5).toFixed(0)} ns`).join(', ')} (median of ${ROUNDS} alternated rounds)`,
  );
}

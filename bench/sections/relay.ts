// Relay: the baseline upstream directly, Gatehouse relaying to it with the journal on and off, bare Fastify and bare node:http pass-throughs (the floors) and Portkey pointed at it, side by side.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chatBody, longChatBody } from '../lib/fixtures.ts';
import { startPortkey } from '../lib/portkey.ts';
import { startChild, type Child } from '../lib/processes.ts';
import { compare, type CaseFigures, type Contender, type RoundPlan } from '../lib/rounds.ts';

/** One relay case at one concurrency. */
export interface RelayCase {
  case: string;
  concurrency: number;
  figures: CaseFigures[];
  /** What the reader should know of the case (e.g. how many events each contender's stream sends). */
  note?: string;
}

export interface RelayResults {
  cases: RelayCase[];
  /** Why a contender did not run, if one did not. */
  skipped: string[];
  portkeyVersion?: string;
}

type Ready = { url: string; token?: string };
const upstreamScript = new URL('../servers/upstream.ts', import.meta.url);
const gatehouseScript = new URL('../servers/gatehouse.ts', import.meta.url);
const bareRelayScript = new URL('../servers/bare-relay.ts', import.meta.url);
const bareNodeRelayScript = new URL('../servers/bare-node-relay.ts', import.meta.url);

/** The relayed channel's key of the keyed contender: as long as an OpenAI project key's classic form (the upstream ignores it). */
export const BENCH_CHANNEL_KEY = `sk-bench-${'k3Yq9ZpX'.repeat(6)}`;

/** The contender relaying through a channel with a key. */
const KEYED_CONTENDER = 'gatehouse (journal on, channel key)';

/** The bench's Gatehouse server in an older checkout ($BENCH_BEFORE_DIR), run beside this one to record before and after in one run. */
export function beforeScript(): URL | undefined {
  const dir = process.env['BENCH_BEFORE_DIR'];
  return dir ? pathToFileURL(path.join(dir, 'bench/servers/gatehouse.ts')) : undefined;
}

/** Runs the relay comparison; `execArgv` goes to the Gatehouse processes (e.g. --cpu-prof). */
export async function benchRelay(plan: RoundPlan, concurrencies: number[], execArgv: string[] = []): Promise<RelayResults> {
  const children: Child<Ready>[] = [];
  const skipped: string[] = [];
  try {
    const upstream = await startChild<Ready>(upstreamScript);
    children.push(upstream);
    const base = `${upstream.ready.url}/v1`;
    const journalOn = await startChild<Ready>(gatehouseScript, [JSON.stringify({ journal: true, channelBaseUrl: base })], execArgv);
    children.push(journalOn);
    const journalOff = await startChild<Ready>(gatehouseScript, [JSON.stringify({ journal: false, channelBaseUrl: base })], execArgv);
    children.push(journalOff);
    // A channel with a key, as every real provider's is: its answers are scrubbed of the key in every encoding.
    const keyed = await startChild<Ready>(
      gatehouseScript,
      [JSON.stringify({ journal: true, channelBaseUrl: base, channelKey: BENCH_CHANNEL_KEY })],
      execArgv,
    );
    children.push(keyed);
    const bareRelay = await startChild<Ready>(bareRelayScript, [base]);
    children.push(bareRelay);
    const bareNodeRelay = await startChild<Ready>(bareNodeRelayScript, [base]);
    children.push(bareNodeRelay);
    const before = beforeScript();
    const previous = before && (await startChild<Ready>(before, [JSON.stringify({ journal: true, channelBaseUrl: base })], execArgv));
    if (previous) children.push(previous);
    const portkey = await startPortkey();
    if ('skipped' in portkey) {
      skipped.push(`portkey: ${portkey.skipped}`);
      console.log(`skipping Portkey: ${portkey.skipped}`);
    }
    const cases: RelayCase[] = [];
    const shapes = [
      { name: 'chat, JSON', body: chatBody(false) },
      { name: 'chat, SSE stream', body: chatBody(true) },
      { name: 'chat, JSON, 50 KB prompt', body: longChatBody() },
    ];
    for (const { name, body } of shapes) {
      const path = '/v1/chat/completions';
      const bearer = (child: Child<Ready>) => ({ authorization: `Bearer ${child.ready.token}` });
      const contenders: Contender[] = [
        { name: 'direct', origin: upstream.ready.url, spec: { method: 'POST', path, body } },
        { name: 'gatehouse (journal on)', origin: journalOn.ready.url, spec: { method: 'POST', path, body, headers: bearer(journalOn) } },
        {
          name: 'gatehouse (journal off)',
          origin: journalOff.ready.url,
          spec: { method: 'POST', path, body, headers: bearer(journalOff) },
        },
        { name: KEYED_CONTENDER, origin: keyed.ready.url, spec: { method: 'POST', path, body, headers: bearer(keyed) } },
      ];
      contenders.push({ name: 'bare Fastify relay (floor)', origin: bareRelay.ready.url, spec: { method: 'POST', path, body } });
      contenders.push({ name: 'bare node:http relay', origin: bareNodeRelay.ready.url, spec: { method: 'POST', path, body } });
      if (previous) {
        const spec = { method: 'POST' as const, path, body, headers: bearer(previous) };
        contenders.push({ name: 'gatehouse BEFORE (journal on)', origin: previous.ready.url, spec });
      }
      if (!('skipped' in portkey)) {
        contenders.push({
          name: `portkey ${portkey.version}`,
          origin: portkey.url,
          spec: {
            method: 'POST',
            path,
            body,
            headers: { authorization: 'Bearer sk-bench', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': base },
          },
        });
      }
      for (const concurrency of concurrencies) {
        console.log(`relay: ${name}, c=${concurrency}`);
        cases.push({ case: name, concurrency, figures: await compare(contenders, concurrency, plan) });
      }
    }
    if (!('skipped' in portkey)) await portkey.stop();
    return { cases, skipped, ...(!('skipped' in portkey) && { portkeyVersion: portkey.version }) };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

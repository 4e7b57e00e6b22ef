// Simulate mode: chat (JSON and stream), embeddings, and the portrait single-asset query and list on a store of 100,000 assets, beside a bare Fastify route and a bare node:http server answering the same chat JSON and aimock answering the same text.
import { startAimock } from '../lib/aimock.ts';
import { chatBody } from '../lib/fixtures.ts';
import { startChild, type Child } from '../lib/processes.ts';
import { askChat, simulatedTextOf } from '../lib/simulated-text.ts';
import { compare, type Contender, type RoundPlan } from '../lib/rounds.ts';
import { beforeScript, type RelayCase } from './relay.ts';

type Ready = { url: string; token?: string; sampleAssetId?: string };
const gatehouseScript = new URL('../servers/gatehouse.ts', import.meta.url);
const fastifyScript = new URL('../servers/bare-fastify.ts', import.meta.url);
const nodeScript = new URL('../servers/bare-node-simulate.ts', import.meta.url);

/** The simulate cases, and why a contender did not run. */
export interface SimulateResults {
  cases: RelayCase[];
  skipped: string[];
  aimockVersion?: string;
}

/** The text of a chat answer (JSON), and the SSE events (`data:` lines, `[DONE]` included) of the same call streamed. */
async function answerShape(origin: string, headers: Record<string, string>, model: string): Promise<{ text: string; events: number }> {
  const text = await simulatedTextOf(origin, headers, model);
  const stream = await askChat(origin, headers, true, model);
  return { text, events: (await stream.text()).split('\n').filter((line) => line.startsWith('data:')).length };
}

/** Runs the simulate-mode cases on one gateway holding `assets` seeded assets. */
export async function benchSimulate(
  plan: RoundPlan,
  concurrencies: number[],
  assets: number,
  execArgv: string[] = [],
): Promise<SimulateResults> {
  const children: Child<Ready>[] = [];
  const skipped: string[] = [];
  let stopAimock = async () => {};
  try {
    const gatehouse = await startChild<Ready>(
      gatehouseScript,
      [JSON.stringify({ journal: true, seed: { assets, status: 'Active' } })],
      execArgv,
    );
    children.push(gatehouse);
    const fastify = await startChild<Ready>(fastifyScript);
    children.push(fastify);
    const bareNode = await startChild<Ready>(nodeScript);
    children.push(bareNode);
    const before = beforeScript();
    const previous =
      before && (await startChild<Ready>(before, [JSON.stringify({ journal: true, seed: { assets, status: 'Active' } })], execArgv));
    if (previous) children.push(previous);
    const origin = gatehouse.ready.url;
    const headers = { authorization: `Bearer ${gatehouse.ready.token}` };
    /** The case's Gatehouse contender, and the same on the older checkout when there is one. */
    const both = (spec: Contender['spec']): Contender[] => [
      { name: 'gatehouse simulate', origin, spec },
      ...(previous
        ? [
            {
              name: 'gatehouse BEFORE',
              origin: previous.ready.url,
              spec: { ...spec, headers: { authorization: `Bearer ${previous.ready.token}` } },
            },
          ]
        : []),
    ];
    const pages = Math.max(1, Math.floor(assets / 100));
    const assetId = (n: number) => `ast_bench${String(n % assets).padStart(7, '0')}`;
    const chat = (stream: boolean) => ({
      method: 'POST' as const,
      path: '/v1/chat/completions',
      headers,
      body: chatBody(stream, 'sim-chat'),
    });
    const fastifyChat: Contender = {
      name: 'bare fastify, same JSON',
      origin: fastify.ready.url,
      spec: { method: 'POST', path: '/v1/chat/completions', body: chatBody(false) },
    };
    const nodeChat: Contender = { ...fastifyChat, name: 'bare node:http, same JSON', origin: bareNode.ready.url };
    // aimock answers the simulator's own text for the bench's prompt, from one catch-all fixture.
    const ours = await answerShape(origin, headers, 'sim-chat');
    const aimock = await startAimock(ours.text);
    const aimockChat: (stream: boolean) => Contender[] = (stream) =>
      'skipped' in aimock
        ? []
        : [
            {
              name: `aimock ${aimock.version}`,
              origin: aimock.url,
              spec: { method: 'POST', path: '/v1/chat/completions', body: chatBody(stream) },
            },
          ];
    let streamNote = `SSE events per answer (data: lines, [DONE] included): gatehouse ${ours.events}`;
    if ('skipped' in aimock) {
      skipped.push(`aimock: ${aimock.skipped}`);
      console.log(`skipping aimock: ${aimock.skipped}`);
    } else {
      stopAimock = aimock.stop;
      const theirs = await answerShape(aimock.url, {}, 'bench-model');
      if (theirs.text !== ours.text)
        throw new Error(`aimock answers ${JSON.stringify(theirs.text)}, not the simulator's ${JSON.stringify(ours.text)}`);
      streamNote += `, aimock ${theirs.events} (its default 20-character chunks); the same ${ours.text.length}-character text`;
    }
    const cases: [string, Contender[], string?][] = [
      ['chat, JSON', [...both(chat(false)), fastifyChat, nodeChat, ...aimockChat(false)]],
      ['chat, SSE stream', [...both(chat(true)), ...aimockChat(true)], streamNote],
      [
        'embeddings',
        both({ method: 'POST', path: '/v1/embeddings', headers, body: { model: 'sim-embed', input: 'The quick brown fox.' } }),
      ],
      [`portrait asset query (of ${assets})`, both({ method: 'GET', path: (n) => `/v1/portrait/assets/${assetId(n * 7919)}`, headers })],
      [
        `portrait list of 100 (of ${assets})`,
        both({ method: 'GET', path: (n) => `/v1/portrait/assets?p=${((n * 7919) % pages) + 1}&page_size=100`, headers }),
      ],
    ];
    const results: RelayCase[] = [];
    for (const [name, contenders, note] of cases) {
      for (const concurrency of concurrencies) {
        console.log(`simulate: ${name}, c=${concurrency}`);
        results.push({ case: name, concurrency, figures: await compare(contenders, concurrency, plan), ...(note && { note }) });
      }
    }
    return { cases: results, skipped, ...(!('skipped' in aimock) && { aimockVersion: aimock.version }) };
  } finally {
    await stopAimock();
    await Promise.all(children.map((child) => child.stop()));
  }
}

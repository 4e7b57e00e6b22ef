// Simulate mode: chat (JSON and stream), embeddings, and the portrait single-asset query and list on a store of 100,000 assets, beside a bare Fastify route answering the same chat JSON.
import { chatBody } from '../lib/fixtures.ts';
import { startChild, type Child } from '../lib/processes.ts';
import { compare, type Contender, type RoundPlan } from '../lib/rounds.ts';
import { beforeScript, type RelayCase } from './relay.ts';

type Ready = { url: string; token?: string; sampleAssetId?: string };
const gatehouseScript = new URL('../servers/gatehouse.ts', import.meta.url);
const fastifyScript = new URL('../servers/bare-fastify.ts', import.meta.url);

/** Runs the simulate-mode cases on one gateway holding `assets` seeded assets. */
export async function benchSimulate(
  plan: RoundPlan,
  concurrencies: number[],
  assets: number,
  execArgv: string[] = [],
): Promise<RelayCase[]> {
  const children: Child<Ready>[] = [];
  try {
    const gatehouse = await startChild<Ready>(
      gatehouseScript,
      [JSON.stringify({ journal: true, seed: { assets, status: 'Active' } })],
      execArgv,
    );
    children.push(gatehouse);
    const fastify = await startChild<Ready>(fastifyScript);
    children.push(fastify);
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
    const cases: [string, Contender[]][] = [
      ['chat, JSON', [...both(chat(false)), fastifyChat]],
      ['chat, SSE stream', both(chat(true))],
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
    for (const [name, contenders] of cases) {
      for (const concurrency of concurrencies) {
        console.log(`simulate: ${name}, c=${concurrency}`);
        results.push({ case: name, concurrency, figures: await compare(contenders, concurrency, plan) });
      }
    }
    return results;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

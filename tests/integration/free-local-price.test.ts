// Integration test of free local models: calls relayed to a keyless channel on this machine (an Ollama) cost 0 in the dashboard, a keyed channel's are charged, an owner's price wins.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import type { UsageStats } from '../../shared/usage-stats.ts';
import { eventually } from '../helpers/eventually.ts';
import { channelStage, type ChannelStage } from '../helpers/channel-stage.ts';
import { tempDirs, type TestGateway } from '../helpers/gateway.ts';
import type { HostileUpstream } from '../helpers/hostile-upstream.ts';

const dirs = tempDirs();
let stage: ChannelStage;
let server: TestGateway;
let upstream: TestGateway;
let ollama: HostileUpstream;
let admin: ChannelStage['admin'];

before(async () => {
  stage = await channelStage(dirs.fresh());
  ({ server, upstream, ollama, admin } = stage);
  for (const channel of [
    { name: 'ollama', kind: 'openai', base_url: `${ollama.url}/v1`, models: 'llama3.2:3b' },
    // Also on this machine, but keyed: a paid upstream behind a local proxy is charged as usual.
    { name: 'keyed', kind: 'openai', base_url: `${upstream.url}/v1`, models: 'sim-chat', key: upstream.token },
  ])
    assert.equal((await admin('POST', '/channels', channel)).status, 200);
});
after(async () => {
  await stage.stop();
  dirs.removeAll();
});

/** The dashboard's row of `model` once it counts `calls` billed calls. */
const rowOf = (model: string, calls: number) =>
  eventually(async () => {
    const stats = (await admin('GET', '/usage')).body as UsageStats;
    const row = stats.byModel.find((item) => item.key === model);
    return row !== undefined && row.billedCalls === calls && row;
  }, `${calls} billed call(s) of ${model} in the dashboard`);

test('a keyless loopback channel costs 0, a keyed one is charged; an explicit price of the local model wins', async () => {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
  const ask = (model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  assert.equal((await ask('llama3.2:3b')).choices[0]!.message.content, 'Hello there! How can I help you today?');
  await ask('sim-chat');

  const local = await rowOf('llama3.2:3b', 1);
  assert.equal(local.inputTokens, 3);
  assert.equal(local.spend, 0, 'a free local model');
  assert.ok((await rowOf('sim-chat', 1)).spend > 0, 'the keyed channel is charged');

  const priced = await admin('PUT', `/prices/${encodeURIComponent('llama3.2:3b')}`, { input_per_mtok: 1000, output_per_mtok: 1000 });
  assert.equal(priced.status, 200, JSON.stringify(priced.body));
  await ask('llama3.2:3b');
  assert.ok((await rowOf('llama3.2:3b', 2)).spend > 0, "the owner's price wins");
});

// End-to-end relay through real channels: `gatehouse channel add` on a running `gatehouse serve`, then the official SDKs reach the upstream through it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { firstTokenOf, privateServeArgs, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

describe('relay through channels added with the CLI', () => {
  const dirs = tempDirs();
  let upstream: TestGateway;
  let front: ServeProcess;
  let dataDir: string;
  let token: string;

  before(async () => {
    upstream = await startGateway();
    dataDir = dirs.fresh();
    front = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
    token = firstTokenOf(front);
  });

  after(async () => {
    await front?.stop();
    await upstream?.stop();
  });

  /** What the upstream's journal recorded on `path`, newest first. */
  const upstreamCalls = async (path: string) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { body } = await request(`${upstream.url}/admin/api/journal?path=${encodeURIComponent(path)}`, 'GET', {
      token: upstream.gateway.adminToken,
    });
    return (body as { items: { model: string | null; account: string | null }[] }).items;
  };

  test('a channel added while the server runs carries the next call to its upstream, renamed, with its own key', async () => {
    const added = await runCliAsync(
      [
        'channel',
        'add',
        '--name',
        'upstream-gatehouse',
        '--kind',
        'openai',
        '--base-url',
        `${upstream.url}/v1`,
        '--models',
        'relay-echo=sim-echo',
        '--key-env',
        'UPSTREAM_KEY',
        '--data-dir',
        dataDir,
        '--secrets',
        'file',
      ],
      { UPSTREAM_KEY: upstream.token },
    );
    assert.equal(added.code, 0, added.stderr);

    const client = new OpenAI({ apiKey: token, baseURL: `${front.url}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'relay-echo',
      messages: [{ role: 'user', content: 'through the channel' }],
    });
    assert.equal(answer.choices[0]!.message.content, 'through the channel', "the upstream's echo model answered");
    const calls = await upstreamCalls('/v1/chat/completions');
    assert.equal(calls[0]?.model, 'sim-echo', 'the model was renamed on the way out');
    assert.equal(calls[0]?.account, 'local', "the upstream saw the channel's key, not the caller's token");

    let streamed = '';
    const stream = await client.chat.completions.create({
      model: 'relay-echo',
      stream: true,
      messages: [{ role: 'user', content: 'streamed through the channel' }],
    });
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    assert.equal(streamed, 'streamed through the channel');

    const simulated = await client.chat.completions.create({ model: 'sim-echo', messages: [{ role: 'user', content: 'stays local' }] });
    assert.equal(simulated.choices[0]!.message.content, 'stays local', 'a model no channel serves is still simulated');
    assert.equal((await upstreamCalls('/v1/chat/completions')).length, 2, 'and never reaches the upstream');
  });
});

// `store: true` on a relayed chat completion: the channel's answer is kept by the gateway, so retrieve, list, messages and delete work through the openai SDK.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels } from '../helpers/channels.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries } from '../helpers/relay.ts';

describe('stored chat completions of a relayed model', () => {
  let up: TestGateway;
  let front: TestGateway;
  let client: OpenAI;

  before(async () => {
    up = await startGateway();
    const channel = { name: 'up', kind: 'openai' as const, api: 'chat' as const, baseUrl: `${up.url}/v1`, key: up.token };
    front = await startGateway({ channels: memoryChannels([{ ...channel, models: ['relay-echo=sim-echo'] }]) });
    client = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
  });
  after(async () => {
    await front?.stop();
    await up?.stop();
  });

  test('create with store: true, then retrieve, list, messages, update and delete it', async () => {
    const created = await client.chat.completions.create({
      model: 'relay-echo',
      store: true,
      metadata: { topic: 'relay' },
      messages: [{ role: 'user', content: 'keep this answer' }],
    });
    assert.equal(created.choices[0]!.message.content, 'keep this answer', "the channel's echo model answered");
    const upstreamCalls = await journalEntries(up, { path: '/v1/chat/completions' });
    assert.ok(
      upstreamCalls.some((entry) => entry.model === 'sim-echo'),
      'the call went to the channel',
    );

    const retrieved = await client.chat.completions.retrieve(created.id);
    assert.equal(retrieved.id, created.id);
    assert.equal(retrieved.model, 'relay-echo');
    assert.equal(retrieved.choices[0]!.message.content, 'keep this answer');
    assert.deepEqual(retrieved.metadata, { topic: 'relay' });

    const listed = await client.chat.completions.list({ model: 'relay-echo' });
    assert.ok(listed.data.some((item) => item.id === created.id));
    const messages = await client.chat.completions.messages.list(created.id);
    assert.equal(messages.data[0]!.content, 'keep this answer');
    const updated = await client.chat.completions.update(created.id, { metadata: { topic: 'changed' } });
    assert.deepEqual(updated.metadata, { topic: 'changed' });

    const deleted = await client.chat.completions.delete(created.id);
    assert.equal(deleted.deleted, true);
    await assert.rejects(client.chat.completions.retrieve(created.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
  });

  test('a streamed store: true completion is kept once its stream ended', async () => {
    let id = '';
    let text = '';
    for await (const chunk of await client.chat.completions.create({
      model: 'relay-echo',
      store: true,
      stream: true,
      messages: [{ role: 'user', content: 'streamed and kept' }],
    })) {
      id = chunk.id;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    assert.equal(text, 'streamed and kept');
    const retrieved = await client.chat.completions.retrieve(id);
    assert.equal(retrieved.choices[0]!.message.content, 'streamed and kept');
  });

  test('without store the call is passed through as before, and nothing is kept', async () => {
    const answer = await client.chat.completions.create({ model: 'relay-echo', messages: [{ role: 'user', content: 'not kept' }] });
    assert.equal(answer.choices[0]!.message.content, 'not kept');
    assert.equal(answer.model, 'relay-echo');
    await assert.rejects(client.chat.completions.retrieve(answer.id), (error: unknown) => error instanceof OpenAI.NotFoundError);
  });
});

// Integration tests: a conversation kept by the gateway used with a relayed Responses model: its items go upstream as earlier input, and the turn is added to it here, JSON and streamed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels } from '../helpers/channels.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries, settle } from '../helpers/relay.ts';

describe('conversations with a relayed Responses model', () => {
  let up: TestGateway;
  let front: TestGateway;
  let openai: OpenAI;

  before(async () => {
    up = await startGateway();
    front = await startGateway({
      channels: memoryChannels([
        { name: 'up', kind: 'openai', api: 'responses', baseUrl: `${up.url}/v1`, key: up.token, models: ['my-gpt=sim-chat'] },
      ]),
    });
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
  });
  after(async () => {
    await front.stop();
    await up.stop();
  });

  /** The body the upstream received on its latest Responses create. */
  const lastSent = async () => {
    await settle();
    const [entry] = await journalEntries(up, { path: '/v1/responses' });
    return JSON.parse(entry.request.text) as Record<string, any>;
  };
  const kinds = (items: OpenAI.Conversations.ConversationItem[]) => items.map((item) => (item.type === 'message' ? item.role : item.type));

  test('the earlier turns go upstream as input (without `conversation`), and input and output are added to the conversation', async () => {
    const conversation = await openai.conversations.create({ items: [{ type: 'message', role: 'user', content: 'the word is heron' }] });
    const first = await openai.responses.create({ model: 'my-gpt', input: 'what was the word?', conversation: conversation.id });
    assert.equal(first.model, 'my-gpt');
    const sent = await lastSent();
    assert.equal(sent['conversation'], undefined, 'the channel does not know the conversation');
    assert.equal(sent['model'], 'sim-chat');
    assert.deepEqual(
      sent['input'].map((item: any) => item.content[0]?.text ?? item.content),
      ['the word is heron', 'what was the word?'],
    );
    assert.equal(sent['input'][0].id, undefined, 'an input message goes without the id the conversation gave it');

    const items = (await openai.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.deepEqual(kinds(items), ['user', 'user', 'assistant']);
    assert.equal(items[2]!.id, first.output[0]!.id, "the upstream's output item, as answered");

    const stream = await openai.responses.create({
      model: 'my-gpt',
      input: 'and again?',
      conversation: { id: conversation.id },
      stream: true,
    });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    assert.ok(completed);
    const streamedSent = await lastSent();
    assert.deepEqual(
      streamedSent['input'].map((item: any) => item.role),
      ['user', 'user', 'assistant', 'user'],
      'the earlier answer went up as an assistant item',
    );
    const after = (await openai.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.deepEqual(kinds(after), ['user', 'user', 'assistant', 'user', 'assistant']);
    assert.equal(after[4]!.id, completed.output[0]!.id);
  });

  test('an unknown conversation on a relayed call is a 404 and nothing reaches the upstream', async () => {
    await settle();
    const before = (await journalEntries(up, { path: '/v1/responses' })).length;
    const error = await openai.responses.create({ model: 'my-gpt', input: 'x', conversation: 'conv_nothere' }).then(
      () => assert.fail('expected a refusal'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 404);
    assert.equal(error.param, 'conversation');
    await settle();
    assert.equal((await journalEntries(up, { path: '/v1/responses' })).length, before);
  });
});

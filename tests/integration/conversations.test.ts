// Integration tests of the simulated OpenAI Conversations API and `conversation` on Responses, driven by the official openai SDK; conversations are scoped by account.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request } from '../helpers/gateway.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

const MODEL = 'gpt-4.1-mini';

/** The error `attempt` fails with, which must be an API error. */
async function failure(attempt: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await attempt.then(
    () => assert.fail('expected a refusal'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof OpenAI.APIError, String(error));
  return error;
}

/** A user message item. */
const said = (text: string) => ({ type: 'message' as const, role: 'user' as const, content: text });

describe('OpenAI Conversations API (simulate mode)', () => {
  const suite = useOpenAIGateway();
  let bob: OpenAI;

  before(async () => {
    const made = await request(`${suite.gw.url}/admin/api/tokens`, 'POST', {
      token: suite.gw.gateway.adminToken,
      body: { account: 'bob', name: 'laptop' },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    bob = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: made.body.secret, maxRetries: 0 });
  });

  test('a conversation is created with metadata and items, retrieved, updated and deleted', async () => {
    const { client } = suite;
    const created = await client.conversations.create({ metadata: { topic: 'birds' }, items: [said('hello'), said('again')] });
    assert.match(created.id, /^conv_/);
    assert.equal(created.object, 'conversation');
    assert.equal(typeof created.created_at, 'number');
    assert.deepEqual(created.metadata, { topic: 'birds' });

    assert.deepEqual(await client.conversations.retrieve(created.id), created);
    const updated = await client.conversations.update(created.id, { metadata: { topic: 'herons' } });
    assert.deepEqual(updated.metadata, { topic: 'herons' });
    assert.deepEqual((await client.conversations.retrieve(created.id)).metadata, { topic: 'herons' });

    const deleted = await client.conversations.delete(created.id);
    assert.deepEqual(deleted, { id: created.id, object: 'conversation.deleted', deleted: true });
    assert.equal((await failure(client.conversations.retrieve(created.id))).status, 404);
  });

  test('items are added (at most 20 a call), listed by page in either order, retrieved and deleted', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create({ items: [said('one')] });
    const added = await client.conversations.items.create(conversation.id, { items: [said('two'), said('three')] });
    assert.equal(added.object, 'list');
    assert.equal(added.data.length, 2);
    const two = added.data[0]!;
    assert.ok(two.type === 'message' && two.role === 'user');
    assert.match(two.id, /^msg_/);
    assert.deepEqual(two.type === 'message' && two.content, [{ type: 'input_text', text: 'two' }]);
    assert.equal(added.first_id, two.id);

    const tooMany = await failure(
      client.conversations.items.create(conversation.id, { items: Array.from({ length: 21 }, () => said('x')) }),
    );
    assert.equal(tooMany.status, 400);

    const texts = (items: OpenAI.Conversations.ConversationItem[]) =>
      items.map((item) => (item.type === 'message' && item.content[0]?.type === 'input_text' ? item.content[0].text : '?'));
    const newest = await client.conversations.items.list(conversation.id, { limit: 2 });
    assert.deepEqual(texts(newest.data), ['three', 'two']);
    assert.equal(newest.has_more, true);
    const rest = await newest.getNextPage();
    assert.deepEqual(texts(rest.data), ['one']);
    assert.equal(rest.has_more, false);
    const all: OpenAI.Conversations.ConversationItem[] = [];
    for await (const item of client.conversations.items.list(conversation.id, { order: 'asc', limit: 1 })) all.push(item);
    assert.deepEqual(texts(all), ['one', 'two', 'three']);

    const firstId = all[0]!.id;
    assert.ok(firstId);
    const one = await client.conversations.items.retrieve(firstId, { conversation_id: conversation.id });
    assert.deepEqual(one, all[0]);
    const after = await client.conversations.items.delete(firstId, { conversation_id: conversation.id });
    assert.equal(after.id, conversation.id);
    assert.equal(after.object, 'conversation');
    assert.deepEqual(texts((await client.conversations.items.list(conversation.id, { order: 'asc' })).data), ['two', 'three']);
    assert.equal((await failure(client.conversations.items.retrieve(firstId, { conversation_id: conversation.id }))).status, 404);
  });

  test('a response naming the conversation answers its earlier turns and adds its input and output to it', async () => {
    const { client } = suite;
    const filler = 'the heron stands in the reed bed at dawn and waits for fish. '.repeat(20);
    const conversation = await client.conversations.create({ items: [said(filler)] });
    const alone = await client.responses.create({ model: MODEL, input: 'what stands in the reeds?', store: false });
    const answered = await client.responses.create({ model: MODEL, input: 'what stands in the reeds?', conversation: conversation.id });
    assert.deepEqual(answered.conversation, { id: conversation.id });
    assert.ok(answered.usage!.input_tokens > alone.usage!.input_tokens + 100, 'the earlier turn was part of the call');

    const items = (await client.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.deepEqual(
      items.map((item) => (item.type === 'message' ? item.role : item.type)),
      ['user', 'user', 'assistant'],
    );
    assert.equal(items[2]!.id, answered.output[0]!.id);
    assert.deepEqual(items[1]!.type === 'message' && items[1].content, [{ type: 'input_text', text: 'what stands in the reeds?' }]);

    // The `{id}` form, streamed: the turn is added once the stream completed.
    const stream = await client.responses.create({
      model: MODEL,
      input: 'and then?',
      conversation: { id: conversation.id },
      stream: true,
    });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    assert.ok(completed);
    assert.ok(completed.usage!.input_tokens > answered.usage!.input_tokens, 'the earlier turns, answer included, were part of the call');
    const after = (await client.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.equal(after.length, 5);
    assert.equal(after[4]!.id, completed.output[0]!.id);
  });

  test('conversation and previous_response_id together are refused, as is an unknown conversation', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create();
    const first = await client.responses.create({ model: MODEL, input: 'hi' });
    const both = await failure(
      client.responses.create({ model: MODEL, input: 'x', conversation: conversation.id, previous_response_id: first.id }),
    );
    assert.equal(both.status, 400);
    assert.equal(both.param, 'conversation');
    const unknown = await failure(client.responses.create({ model: MODEL, input: 'x', conversation: 'conv_nothere' }));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.param, 'conversation');
    assert.equal((await client.conversations.items.list(conversation.id)).data.length, 0, 'nothing was added by the refusal');
  });

  test("another account's conversation answers as unknown, to every call, and stays untouched", async () => {
    const { client } = suite;
    const mine = await client.conversations.create({ metadata: { owner: 'alice' }, items: [said('secret')] });
    const notFound = async (attempt: Promise<unknown>) => {
      const error = await failure(attempt);
      assert.equal(error.status, 404);
      assert.match(error.message, /not found/);
    };
    await notFound(bob.conversations.retrieve(mine.id));
    await notFound(bob.conversations.update(mine.id, { metadata: { owner: 'bob' } }));
    await notFound(bob.conversations.items.list(mine.id));
    await notFound(bob.conversations.items.create(mine.id, { items: [said('mine now')] }));
    await notFound(bob.responses.create({ model: MODEL, input: 'what was said?', conversation: mine.id }));
    await notFound(bob.conversations.delete(mine.id));
    assert.deepEqual((await client.conversations.retrieve(mine.id)).metadata, { owner: 'alice' });
    assert.equal((await client.conversations.items.list(mine.id)).data.length, 1);
  });
});

// Integration tests of stored chat completions through the official openai SDK: `store: true` keeps a completion per account; list (model, metadata, after, limit, order), retrieve, update, delete and its messages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';
import { CHAT_COMPLETION, shapeErrors } from '../helpers/openai-shapes.ts';

describe('stored chat completions', () => {
  const suite = useOpenAIGateway();

  test('only required parameters: a stored completion is listed, retrieved, updated, its messages listed, and deleted', async () => {
    const { client } = suite;
    const created = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'Hello there' }],
      store: true,
    });
    const page = await client.chat.completions.list();
    assert.ok(page.data.some((completion) => completion.id === created.id));
    const retrieved = await client.chat.completions.retrieve(created.id);
    assert.equal(retrieved.id, created.id);
    assert.deepEqual(retrieved.choices, created.choices);
    assert.deepEqual(
      shapeErrors(Object.fromEntries(Object.entries(retrieved).filter(([key]) => key !== 'metadata')), CHAT_COMPLETION, 'stored'),
      [],
    );
    const updated = await client.chat.completions.update(created.id, { metadata: { topic: 'greeting' } });
    assert.deepEqual((updated as unknown as { metadata: unknown }).metadata, { topic: 'greeting' });
    const messages = await client.chat.completions.messages.list(created.id);
    assert.equal(messages.data.length, 1);
    assert.equal(messages.data[0]!.content, 'Hello there');
    assert.equal(messages.data[0]!.role as string, 'user');
    assert.equal(typeof messages.data[0]!.id, 'string');
    const deleted = await client.chat.completions.delete(created.id);
    assert.deepEqual(deleted, { id: created.id, object: 'chat.completion.deleted', deleted: true });
    const gone = await client.chat.completions.retrieve(created.id).catch((error: unknown) => error);
    assert.ok(gone instanceof OpenAI.NotFoundError);
  });

  test('every parameter: list filters by model and metadata, pages with after/limit in either order; messages page too', async () => {
    const { client } = suite;
    const ids: string[] = [];
    for (const [index, model] of ['model-a', 'model-b', 'model-a', 'model-a'].entries()) {
      const created = await client.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: `Question ${index}` }] },
        ],
        store: true,
        metadata: { run: 'every-param', index: String(index) },
      });
      ids.push(created.id);
    }
    await client.chat.completions.create({ model: 'model-a', messages: [{ role: 'user', content: 'not stored' }] });
    const first = await client.chat.completions.list({ model: 'model-a', metadata: { run: 'every-param' }, limit: 2, order: 'asc' });
    assert.deepEqual(
      first.data.map((completion) => completion.id),
      [ids[0], ids[2]],
    );
    assert.equal(first.hasNextPage(), true);
    const second = await client.chat.completions.list({
      model: 'model-a',
      metadata: { run: 'every-param' },
      after: ids[2]!,
      limit: 2,
      order: 'asc',
    });
    assert.deepEqual(
      second.data.map((completion) => completion.id),
      [ids[3]],
    );
    const all: string[] = [];
    for await (const completion of client.chat.completions.list({ metadata: { run: 'every-param' }, limit: 1, order: 'desc' }))
      all.push(completion.id);
    assert.deepEqual(all, [...ids].reverse());
    const none = await client.chat.completions.list({ metadata: { run: 'every-param', index: '9' } });
    assert.deepEqual(none.data, []);
    const messages = await client.chat.completions.messages.list(ids[1]!, { after: `${ids[1]}-0`, limit: 5, order: 'asc' });
    assert.equal(messages.data.length, 1);
    assert.equal(messages.data[0]!.content, 'Question 1');
    assert.deepEqual(messages.data[0]!.content_parts, [{ type: 'text', text: 'Question 1' }]);
    const cleared = await client.chat.completions.update(ids[0]!, { metadata: null });
    assert.deepEqual((cleared as unknown as { metadata: unknown }).metadata, {});
  });

  test('a streamed completion with store: true is stored as the completion it spelled', async () => {
    const { client } = suite;
    const stream = await client.chat.completions.create({
      model: 'sim-echo',
      messages: [{ role: 'user', content: 'streamed words' }],
      store: true,
      stream: true,
    });
    let id = '';
    let text = '';
    for await (const chunk of stream) {
      id = chunk.id;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    const stored = await client.chat.completions.retrieve(id);
    assert.equal(stored.choices[0]!.message.content, text);
    assert.equal(text, 'streamed words');
  });

  test("another account's completion answers like an unknown id; bad list parameters are 400s naming them", async () => {
    const { client, gw } = suite;
    const created = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'mine' }], store: true });
    const other = gw.gateway.context.tokens.create({ account: 'someone-else', name: 'other' });
    const stranger = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: other.secret, maxRetries: 0 });
    for (const attempt of [
      () => stranger.chat.completions.retrieve(created.id),
      () => stranger.chat.completions.messages.list(created.id),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.NotFoundError);
    }
    assert.deepEqual((await stranger.chat.completions.list()).data, []);
    const badLimit = await client.chat.completions.list({ limit: 0 }).catch((e: unknown) => e);
    assert.ok(badLimit instanceof OpenAI.BadRequestError);
    assert.equal(badLimit.param, 'limit');
    const badMetadata = await client.chat.completions
      .create({ model: 'sim-chat', messages: [{ role: 'user', content: 'x' }], store: true, metadata: { key: 'v'.repeat(513) } })
      .catch((e: unknown) => e);
    assert.ok(badMetadata instanceof OpenAI.BadRequestError);
  });
});

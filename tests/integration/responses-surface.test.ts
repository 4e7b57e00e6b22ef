// Integration tests of the rest of the Responses API through the official openai SDK: input items, background responses polled on the clock and cancelled, and compaction.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { BACKGROUND_TIMING } from '../../electron/gateway/services/stored-responses.ts';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

describe('responses: input items, background, compact', () => {
  const clock = manualClock();
  let gw: TestGateway;
  let client: OpenAI;
  before(async () => {
    gw = await startGateway({ clock });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  });
  after(() => gw.stop());

  test('input_items lists only the input of that response, with ids; required parameters only, then every one', async () => {
    const first = await client.responses.create({ model: 'sim-chat', input: 'first question' });
    const second = await client.responses.create({
      model: 'sim-chat',
      previous_response_id: first.id,
      input: [
        { role: 'user', content: 'second question' },
        { role: 'user', content: [{ type: 'input_text', text: 'third part' }] },
      ],
    });
    const items = await client.responses.inputItems.list(second.id);
    assert.equal(items.data.length, 2);
    // Newest first by default, as on the real API.
    const texts = items.data.map((item) => JSON.stringify((item as { content: unknown }).content));
    assert.match(texts[0]!, /third part/);
    assert.match(texts[1]!, /second question/);
    for (const item of items.data) {
      assert.equal(item.type, 'message');
      assert.equal(typeof item.id, 'string');
    }
    const page = await client.responses.inputItems.list(second.id, { order: 'asc', limit: 1, include: [] });
    assert.equal(page.data.length, 1);
    assert.match(JSON.stringify(page.data[0]), /second question/);
    assert.equal(page.hasNextPage(), true);
    const rest = await client.responses.inputItems.list(second.id, { order: 'asc', limit: 1, after: page.data[0]!.id });
    assert.match(JSON.stringify(rest.data[0]), /third part/);
    const firstItems = await client.responses.inputItems.list(first.id);
    assert.equal(firstItems.data.length, 1);
  });

  test('a background response is queued, then in progress, then completed as the clock moves; store is required', async () => {
    const created = await client.responses.create({ model: 'sim-chat', input: 'work on this in the background', background: true });
    assert.equal(created.status, 'queued');
    assert.equal(created.background, true);
    assert.deepEqual(created.output, []);
    clock.advance(BACKGROUND_TIMING.queuedMs);
    assert.equal((await client.responses.retrieve(created.id)).status, 'in_progress');
    clock.advance(BACKGROUND_TIMING.inProgressMs);
    const done = await client.responses.retrieve(created.id);
    assert.equal(done.status, 'completed');
    assert.ok(done.output_text.length > 0);
    assert.ok(done.usage!.output_tokens > 0);
    const again = await client.responses.cancel(created.id);
    assert.equal(again.status, 'completed', 'cancelling a finished response leaves it as it is');
    const unstored = await client.responses
      .create({ model: 'sim-chat', input: 'x', background: true, store: false })
      .catch((e: unknown) => e);
    assert.ok(unstored instanceof OpenAI.BadRequestError);
    assert.equal(unstored.param, 'background');
  });

  test('cancel stops a background response before it is done: cancelled, without output; a foreground one cannot be cancelled', async () => {
    const created = await client.responses.create({ model: 'sim-chat', input: 'long job', background: true });
    const cancelled = await client.responses.cancel(created.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(cancelled.output, []);
    clock.advance(BACKGROUND_TIMING.queuedMs + BACKGROUND_TIMING.inProgressMs);
    assert.equal((await client.responses.retrieve(created.id)).status, 'cancelled');
    const foreground = await client.responses.create({ model: 'sim-chat', input: 'now' });
    const refused = await client.responses.cancel(foreground.id).catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    const unknown = await client.responses.cancel('resp_unknown').catch((e: unknown) => e);
    assert.ok(unknown instanceof OpenAI.NotFoundError);
  });

  test('compact keeps the user messages and adds a compaction item that a next response reads back; required and every parameter', async () => {
    const minimal = await client.responses.compact({ model: 'sim-chat', input: 'please remember the word pineapple' });
    assert.equal(minimal.object, 'response.compaction');
    assert.equal(typeof minimal.id, 'string');
    assert.equal(typeof minimal.created_at, 'number');
    assert.ok(minimal.usage.input_tokens > 0 && minimal.usage.output_tokens > 0);
    assert.equal(minimal.usage.total_tokens, minimal.usage.input_tokens + minimal.usage.output_tokens);
    const kinds = minimal.output.map((item) => item.type);
    assert.deepEqual(kinds, ['message', 'compaction']);
    const previous = await client.responses.create({ model: 'sim-chat', input: 'an earlier turn about bananas' });
    const full = await client.responses.compact({
      model: 'sim-chat',
      input: [{ role: 'user', content: 'and now apples' }],
      instructions: 'Keep it short.',
      previous_response_id: previous.id,
      prompt_cache_key: 'key-1',
      prompt_cache_options: { mode: 'explicit', ttl: '30m' },
      prompt_cache_retention: '24h',
      service_tier: 'default',
      image: { context_compression: 'enabled' },
    });
    assert.deepEqual(full.image, { context_compression: 'enabled' });
    assert.equal(minimal.image, undefined);
    assert.deepEqual(
      full.output.map((item) => item.type),
      ['message', 'message', 'compaction'],
    );
    const compaction = full.output.at(-1) as { encrypted_content: string };
    const next = await client.responses.create({
      model: 'sim-echo',
      input: [...(full.output as never[]), { role: 'user', content: 'what next?' }],
    });
    assert.equal(next.output_text, 'what next?');
    const forged = await client.responses
      .create({ model: 'sim-chat', input: [{ type: 'compaction', encrypted_content: 'bm90IG91cnM=' } as never] })
      .catch((e: unknown) => e);
    assert.ok(forged instanceof OpenAI.BadRequestError);
    assert.ok(compaction.encrypted_content.length > 0);
  });
});

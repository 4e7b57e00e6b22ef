// Integration tests of relayed Responses API calls: create (JSON and stream), retrieve, delete and follow-ups at the channel that stored the response.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries, settle, usageRows } from '../helpers/relay.ts';

describe('relay of the Responses API', () => {
  let up: TestGateway;
  let spare: TestGateway;
  let front: TestGateway;
  const channels: TestChannel[] = [];
  const directory = memoryChannels(channels);
  let openai: OpenAI;

  const channel = (gw: TestGateway, name: string, priority: number): TestChannel => ({
    name,
    kind: 'openai',
    api: 'responses',
    baseUrl: `${gw.url}/v1`,
    key: gw.token,
    models: ['my-gpt=sim-chat'],
    priority,
  });
  const use = (...list: TestChannel[]) => channels.splice(0, channels.length, ...list);
  const journal = (gw: TestGateway, prefix: string) => journalEntries(gw, { prefix });
  const lastUsage = () => usageRows(front).at(-1)!;

  before(async () => {
    up = await startGateway();
    spare = await startGateway();
    front = await startGateway({ channels: directory });
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
  });
  after(async () => {
    await front.stop();
    await up.stop();
    await spare.stop();
  });
  beforeEach(() => {
    use(channel(up, 'up', 1));
    directory.attempts.length = 0;
  });

  test('a response is created upstream with the channel key and renamed model, billed by its usage, and retrieved and deleted there', async () => {
    const created = await openai.responses.create({ model: 'my-gpt', input: 'hello relayed responses' });
    assert.ok(created.output_text.length > 0);
    assert.equal(created.model, 'my-gpt', "the answer carries the caller's model name back");
    assert.deepEqual(lastUsage(), {
      model: 'my-gpt',
      endpoint: '/v1/responses',
      input_tokens: created.usage!.input_tokens,
      output_tokens: created.usage!.output_tokens,
    });
    await settle();
    const [entry] = await journal(up, '/v1/responses');
    assert.equal(entry.model, 'sim-chat');
    assert.equal(entry.account, 'local', "the channel's key (the front's token means nothing upstream)");

    const fetched = await openai.responses.retrieve(created.id);
    assert.equal(fetched.id, created.id);
    assert.equal(fetched.output_text, created.output_text);
    await settle();
    assert.equal((await journal(up, `/v1/responses/${created.id}`))[0].method, 'GET');

    const deleted = await request(`${front.url}/v1/responses/${created.id}`, 'DELETE', { token: front.token });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted, true);
    const gone = await request(`${up.url}/v1/responses/${created.id}`, 'GET', { token: up.token });
    assert.equal(gone.status, 404, 'deleted at the upstream');
    await assert.rejects(openai.responses.retrieve(created.id), OpenAI.NotFoundError);
  });

  test('a streamed response is relayed event by event and its id remembered from response.created', async () => {
    const stream = await openai.responses.create({ model: 'my-gpt', input: 'stream a relayed response', stream: true });
    const types: string[] = [];
    let id = '';
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.created') id = event.response.id;
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    assert.equal(types[0], 'response.created');
    assert.equal(types.at(-1), 'response.completed');
    assert.ok(text.length > 0);
    const row = lastUsage();
    assert.ok(row.model === 'my-gpt' && row.input_tokens > 0 && row.output_tokens > 0, JSON.stringify(row));
    const fetched = await openai.responses.retrieve(id);
    assert.equal(fetched.output_text, text);
  });

  test('a follow-up with previous_response_id goes to the channel that stored it, even when another is preferred now', async () => {
    const first = await openai.responses.create({ model: 'my-gpt', input: 'remember the word heron' });
    use(channel(up, 'up', 1), channel(spare, 'spare', 5));
    directory.attempts.length = 0;
    const next = await openai.responses.create({ model: 'my-gpt', input: 'and now?', previous_response_id: first.id });
    assert.ok(next.output_text.length > 0);
    assert.deepEqual(
      directory.attempts.map((attempt) => attempt.channel),
      ['up'],
    );
    await settle();
    const [entry] = await journal(up, '/v1/responses');
    assert.match(entry.request.text, new RegExp(first.id));
    // A new conversation is free to go to the preferred channel.
    directory.attempts.length = 0;
    await openai.responses.create({ model: 'my-gpt', input: 'a fresh start' });
    assert.deepEqual(
      directory.attempts.map((attempt) => attempt.channel),
      ['spare'],
    );
  });

  test('a retrieve passes include[], stream and starting_after on to the channel, and nothing else', async () => {
    const created = await openai.responses.create({ model: 'my-gpt', input: 'with query parameters' });
    const query = 'include[]=message.output_text.logprobs&stream=false&starting_after=3&api_key=nope&x-gatehouse-fault=x';
    const fetched = await request(`${front.url}/v1/responses/${created.id}?${query}`, 'GET', { token: front.token });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.body.id, created.id);
    await settle();
    const [entry] = await journal(up, `/v1/responses/${created.id}`);
    assert.deepEqual(entry.query, { 'include[]': 'message.output_text.logprobs', stream: 'false', starting_after: '3' });

    const streamed = await fetch(`${front.url}/v1/responses/${created.id}?stream=true`, {
      headers: { authorization: `Bearer ${front.token}` },
    });
    await streamed.text();
    await settle();
    const [again] = await journal(up, `/v1/responses/${created.id}`);
    assert.deepEqual(again.query, { stream: 'true' });
  });

  test('ids the gateway stored itself stay local: retrieved and deleted without reaching a channel', async () => {
    const local = await openai.responses.create({ model: 'sim-chat', input: 'simulated here' });
    assert.equal((await openai.responses.retrieve(local.id)).output_text, local.output_text);
    const deleted = await request(`${front.url}/v1/responses/${local.id}`, 'DELETE', { token: front.token });
    assert.equal(deleted.body.deleted, true);
    assert.equal(directory.attempts.length, 0, 'no channel was called');
  });
  test("another account's relayed id answers like an unknown one and never reaches the channel", async () => {
    const created = await openai.responses.create({ model: 'my-gpt', input: 'only mine' });
    const stranger = front.gateway.context.tokens.create({ account: 'stranger' }).secret;
    directory.attempts.length = 0;
    const theirs = await request(`${front.url}/v1/responses/${created.id}`, 'GET', { token: stranger });
    const unknown = await request(`${front.url}/v1/responses/resp_unknown`, 'GET', { token: stranger });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.type, unknown.body.error.type);
    const removed = await request(`${front.url}/v1/responses/${created.id}`, 'DELETE', { token: stranger });
    assert.equal(removed.status, 404);
    assert.equal(directory.attempts.length, 0);
    assert.equal((await openai.responses.retrieve(created.id)).id, created.id, 'still there for its owner');
  });
});

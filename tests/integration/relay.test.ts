// Integration tests of relay: a front gateway forwards to upstream Gatehouses (simulate mode) through in-memory channels, called with the official SDKs.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { deadPort } from '../helpers/ports.ts';
import { journalEntries, settle, usageRows } from '../helpers/relay.ts';

describe('relay to upstream channels', () => {
  let up: TestGateway;
  let spare: TestGateway;
  let front: TestGateway;
  let dead: number;
  const channels: TestChannel[] = [];
  const directory = memoryChannels(channels);
  let openai: OpenAI;
  let anthropic: Anthropic;
  let gemini: GoogleGenAI;

  const openaiChannel = (gw: TestGateway, extra: Partial<TestChannel> = {}): TestChannel => ({
    name: `openai@${gw.url}`,
    kind: 'openai',
    baseUrl: `${gw.url}/v1`,
    key: gw.token,
    models: ['my-gpt=sim-chat', 'my-embed=sim-embed', 'my-rerank=sim-rerank', 'my-image=sim-image', 'my-tts=sim-tts'],
    ...extra,
  });
  const use = (...list: TestChannel[]) => channels.splice(0, channels.length, ...list);
  const journal = (gw: TestGateway, path: string) => journalEntries(gw, { path });

  before(async () => {
    up = await startGateway();
    spare = await startGateway();
    front = await startGateway({ channels: directory });
    dead = await deadPort();
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: front.url, apiKey: front.token, maxRetries: 0 });
    gemini = new GoogleGenAI({ apiKey: front.token, httpOptions: { baseUrl: front.url, apiVersion: 'v1beta' } });
  });
  after(async () => {
    await front.stop();
    await up.stop();
    await spare.stop();
  });
  beforeEach(() => {
    use(openaiChannel(up));
    directory.attempts.length = 0;
  });

  test('chat completions reach the upstream with the channel key and renamed model, billed by the upstream usage', async () => {
    const before = usageRows(front).length;
    const answer = await openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hello relay' }] });
    assert.ok(answer.choices[0]!.message.content!.length > 0);
    assert.equal(answer.model, 'my-gpt', "the caller's model name, renamed back from the upstream's");
    await settle();
    const [entry] = await journal(up, '/v1/chat/completions');
    assert.equal(entry.model, 'sim-chat');
    assert.equal(entry.account, 'local', "the upstream's token (the front's token means nothing there)");
    assert.equal(entry.status, 200);
    assert.match(entry.request.text, /hello relay/);
    assert.equal(entry.requestHeaders['authorization'], undefined);
    const charged = usageRows(front).slice(before);
    assert.deepEqual(charged, [
      {
        model: 'my-gpt',
        endpoint: '/v1/chat/completions',
        input_tokens: answer.usage!.prompt_tokens,
        output_tokens: answer.usage!.completion_tokens,
      },
    ]);
    assert.deepEqual(
      directory.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [[channels[0]!.name, true]],
    );
  });

  test('a chat stream is relayed chunk by chunk; usage is asked upstream but hidden from a client that did not ask', async () => {
    const before = usageRows(front).length;
    const stream = await openai.chat.completions.create({
      model: 'my-gpt',
      stream: true,
      messages: [{ role: 'user', content: 'stream it' }],
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.ok(chunks.length > 2);
    assert.equal(chunks.filter((chunk) => chunk.usage).length, 0, 'no usage chunk for a client that did not ask');
    assert.ok(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('').length > 0);
    const [row] = usageRows(front).slice(before);
    assert.ok(row && row.input_tokens > 0 && row.output_tokens > 0, JSON.stringify(row));

    const asked = await openai.chat.completions.create({
      model: 'my-gpt',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'stream it' }],
    });
    let usage;
    for await (const chunk of asked) usage = chunk.usage ?? usage;
    assert.equal(usage?.prompt_tokens, row.input_tokens);
    assert.equal(usage?.completion_tokens, row.output_tokens);
  });

  test('completions and embeddings are relayed', async () => {
    const completion = await openai.completions.create({ model: 'my-gpt', prompt: 'Once upon a time' });
    assert.ok(completion.choices[0]!.text.length > 0);
    let text = '';
    for await (const chunk of await openai.completions.create({ model: 'my-gpt', prompt: 'Once upon a time', stream: true })) {
      text += chunk.choices[0]?.text ?? '';
    }
    assert.ok(text.length > 0);
    const embedded = await openai.embeddings.create({ model: 'my-embed', input: ['one', 'two'] });
    assert.equal(embedded.data.length, 2);
    assert.ok(embedded.data[0]!.embedding.length > 0);
    await settle();
    assert.equal((await journal(up, '/v1/embeddings'))[0].model, 'sim-embed');
    assert.equal(usageRows(front).at(-1)!.input_tokens, embedded.usage.prompt_tokens);
  });

  test('rerank (v1 and Cohere v2), image generations and speech are relayed', async () => {
    const documents = ['Paris is the capital of France', 'Bananas are yellow'];
    const ranked = await request(`${front.url}/v1/rerank`, 'POST', {
      token: front.token,
      body: { model: 'my-rerank', query: 'capital of France', documents },
    });
    assert.equal(ranked.status, 200);
    assert.equal(ranked.body.results[0].index, 0);
    assert.equal(usageRows(front).at(-1)!.input_tokens, ranked.body.usage.total_tokens);
    const v2 = await request(`${front.url}/v2/rerank`, 'POST', {
      token: front.token,
      body: { model: 'my-rerank', query: 'capital of France', documents, return_documents: true },
    });
    assert.equal(v2.status, 200);
    assert.equal(v2.body.results[0].index, 0);
    assert.equal(v2.body.results[0].document.text, documents[0]);
    assert.equal(v2.body.meta.api_version.version, '2', "Cohere's v2 shape, as the upstream's /v2/rerank answered it");
    await settle();
    const [upstreamV2] = await journal(up, '/v2/rerank');
    assert.equal(upstreamV2.model, 'sim-rerank', 'the channel base /v1 became /v2/rerank upstream, with the model renamed');
    assert.equal(usageRows(front).at(-1)!.endpoint, '/v2/rerank');
    assert.equal(usageRows(front).at(-1)!.input_tokens, v2.body.usage.total_tokens);

    const image = await openai.images.generate({ model: 'my-image', prompt: 'a red square', size: '256x256', response_format: 'b64_json' });
    assert.ok(Buffer.from(image.data![0]!.b64_json!, 'base64').subarray(1, 4).toString() === 'PNG');
    const speech = await openai.audio.speech.create({ model: 'my-tts', voice: 'alloy', input: 'hello there', response_format: 'wav' });
    const wav = Buffer.from(await speech.arrayBuffer());
    assert.equal(wav.subarray(0, 4).toString(), 'RIFF');
    await settle();
    assert.equal((await journal(up, '/v1/audio/speech'))[0].model, 'sim-tts');
    assert.equal(usageRows(front).at(-1)!.model, 'my-tts');
  });

  test('Anthropic messages and count_tokens are relayed to an anthropic channel', async () => {
    use({ name: 'claude', kind: 'anthropic', baseUrl: up.url, key: up.token, models: ['my-claude=sim-claude'] });
    const message = await anthropic.messages.create({ model: 'my-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(message.type, 'message');
    assert.ok(message.usage.output_tokens > 0);
    const stream = anthropic.messages.stream({ model: 'my-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalMessage();
    assert.ok(final.content.length > 0);
    const counted = await anthropic.messages.countTokens({ model: 'my-claude', messages: [{ role: 'user', content: 'count me' }] });
    assert.ok(counted.input_tokens > 0);
    await settle();
    const [entry] = await journal(up, '/v1/messages');
    assert.equal(entry.model, 'sim-claude');
    assert.equal(entry.account, 'local');
    assert.match(entry.requestHeaders['anthropic-version'], /^\d{4}-/, "the client's anthropic-version goes through");
    const row = usageRows(front).at(-1)!;
    assert.deepEqual([row.model, row.input_tokens, row.output_tokens], ['my-claude', final.usage.input_tokens, final.usage.output_tokens]);
  });

  test('Gemini generateContent, its streams (SSE and JSON array) and countTokens are relayed to a gemini channel', async () => {
    use({ name: 'gem', kind: 'gemini', baseUrl: up.url, key: up.token, models: ['my-gem=sim-gemini'] });
    const whole = await gemini.models.generateContent({ model: 'my-gem', contents: 'Explain how rivers form.' });
    assert.ok(whole.text!.length > 0);
    let text = '';
    for await (const chunk of await gemini.models.generateContentStream({ model: 'my-gem', contents: 'Explain how rivers form.' })) {
      text += chunk.text ?? '';
    }
    assert.equal(text, whole.text);
    const row = usageRows(front).at(-1)!;
    assert.deepEqual(
      [row.input_tokens, row.output_tokens],
      [whole.usageMetadata!.promptTokenCount, whole.usageMetadata!.candidatesTokenCount],
    );
    const array = await request(`${front.url}/v1/models/my-gem:streamGenerateContent`, 'POST', {
      headers: { 'x-goog-api-key': front.token },
      body: { contents: [{ parts: [{ text: 'Explain how rivers form.' }] }] },
    });
    assert.equal(array.status, 200);
    assert.ok(Array.isArray(array.body) && array.body.length > 1);
    const counted = await gemini.models.countTokens({ model: 'my-gem', contents: 'count me' });
    assert.ok(counted.totalTokens! > 0);
    await settle();
    const paths = (await journal(up, '/v1beta/models/sim-gemini:countTokens')).map((entry) => entry.model);
    assert.deepEqual(paths, ['sim-gemini']);
  });

  test("a renamed model comes back under the caller's name in every answer and streamed event, for each kind; an unrenamed one as the upstream says", async () => {
    let chunks = 0;
    for await (const chunk of await openai.chat.completions.create({
      model: 'my-gpt',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'name me' }],
    })) {
      assert.equal(chunk.model, 'my-gpt');
      chunks += 1;
    }
    assert.ok(chunks > 2);
    assert.equal((await openai.completions.create({ model: 'my-gpt', prompt: 'Once' })).model, 'my-gpt');
    assert.equal((await openai.embeddings.create({ model: 'my-embed', input: 'one' })).model, 'my-embed');
    use(openaiChannel(up, { models: ['sim-chat'] }));
    assert.equal(
      (await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })).model,
      'sim-chat',
    );

    use({ name: 'claude', kind: 'anthropic', baseUrl: up.url, key: up.token, models: ['my-claude=sim-claude'] });
    const message = await anthropic.messages.create({ model: 'my-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(message.model, 'my-claude');
    const stream = anthropic.messages.stream({ model: 'my-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    let started = '';
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') started = event.message.model;
    });
    const final = await stream.finalMessage();
    assert.equal(started, 'my-claude');
    assert.equal(final.model, 'my-claude');
    assert.ok(final.content.length > 0);

    use({ name: 'gem', kind: 'gemini', baseUrl: up.url, key: up.token, models: ['my-gem=sim-gemini'] });
    const whole = await gemini.models.generateContent({ model: 'my-gem', contents: 'Explain how rivers form.' });
    assert.equal(whole.modelVersion, 'my-gem');
    let text = '';
    for await (const chunk of await gemini.models.generateContentStream({ model: 'my-gem', contents: 'Explain how rivers form.' })) {
      assert.equal(chunk.modelVersion, 'my-gem');
      text += chunk.text ?? '';
    }
    assert.equal(text, whole.text);
    const array = await request(`${front.url}/v1beta/models/my-gem:streamGenerateContent`, 'POST', {
      headers: { 'x-goog-api-key': front.token },
      body: { contents: [{ parts: [{ text: 'Explain how rivers form.' }] }] },
    });
    assert.ok(Array.isArray(array.body) && array.body.length > 1, JSON.stringify(array.body).slice(0, 200));
    assert.deepEqual(new Set(array.body.map((item: { modelVersion: string }) => item.modelVersion)), new Set(['my-gem']));
    assert.equal(
      array.body
        .map((item: { candidates: { content: { parts: { text: string }[] } }[] }) => item.candidates[0]!.content.parts[0]!.text)
        .join(''),
      whole.text,
    );
    const row = usageRows(front).at(-1)!;
    assert.equal(row.output_tokens, whole.usageMetadata!.candidatesTokenCount, 'usage read from the array elements as they passed');
  });

  test('a dead channel is skipped for the next one, and both attempts are recorded', async () => {
    use(
      openaiChannel(up, { name: 'dead', baseUrl: `http://127.0.0.1:${dead}/v1`, priority: 2 }),
      openaiChannel(up, { name: 'alive', priority: 1 }),
    );
    const answer = await openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hello' }] });
    assert.ok(answer.choices[0]!.message.content);
    assert.deepEqual(
      directory.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [
        ['dead', false],
        ['alive', true],
      ],
    );
  });

  test("the front's journal records the channel that answered, the upstream model and every try; a relayed stream keeps its timing", async () => {
    use(
      openaiChannel(up, { name: 'busy', priority: 2, headers: { 'x-gatehouse-fault': '503' } }),
      openaiChannel(spare, { name: 'spare', priority: 1, headers: { 'x-gatehouse-pace': '200' } }),
    );
    const stream = await openai.chat.completions.create({
      model: 'my-gpt',
      stream: true,
      messages: [{ role: 'user', content: 'journal me' }],
    });
    let chunks = 0;
    for await (const chunk of stream) chunks += chunk.choices.length > 0 ? 1 : 0;
    assert.ok(chunks > 2);
    await settle();
    const [entry] = await journal(front, '/v1/chat/completions');
    assert.equal(entry.model, 'my-gpt');
    assert.equal(entry.relay.channel, 'spare');
    assert.equal(entry.relay.upstreamModel, 'sim-chat');
    assert.deepEqual(
      entry.relay.attempts.map((attempt: { channel: string; status: number | null; error: string | null }) => [
        attempt.channel,
        attempt.status,
        attempt.error,
      ]),
      [
        ['busy', 503, null],
        ['spare', 200, null],
      ],
    );
    for (const attempt of entry.relay.attempts) assert.ok(Number.isInteger(attempt.ms) && attempt.ms >= 0);
    assert.ok(!JSON.stringify(entry).includes(up.token) && !JSON.stringify(entry).includes(spare.token), 'no channel key in the entry');
    assert.equal(entry.stream, true);
    const { timing } = entry;
    assert.ok(timing.chunks > 2 && timing.chunkOffsetsMs.length === timing.chunks, JSON.stringify(timing));
    assert.ok(timing.chunkOffsetsMs.at(-1) > timing.firstByteMs, 'the writes are spread as the upstream paced them');

    use(openaiChannel(up, { name: 'dead', baseUrl: `http://127.0.0.1:${dead}/v1` }));
    await assert.rejects(openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hello' }] }));
    await settle();
    const [failed] = await journal(front, '/v1/chat/completions');
    assert.equal(failed.status, 502);
    assert.equal(failed.relay.channel, null);
    assert.equal(failed.relay.attempts.length, 1);
    assert.equal(failed.relay.attempts[0].status, null);
    assert.match(failed.relay.attempts[0].error, /.+/);

    await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'not relayed' }] });
    await settle();
    assert.equal((await journal(front, '/v1/chat/completions'))[0].relay, undefined, 'a simulated call has no relay note');
  });

  test('429 and 503 answers fail over to the next channel; when every channel fails, the last answer reaches the client as it is', async () => {
    use(
      openaiChannel(up, { name: 'busy', priority: 3, headers: { 'x-gatehouse-fault': '503' } }),
      openaiChannel(up, { name: 'limited', priority: 2, models: ['my-gpt=sim-chat-fault-429'] }),
      openaiChannel(spare, { name: 'spare', priority: 1 }),
    );
    const answer = await openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hello' }] });
    assert.ok(answer.choices[0]!.message.content);
    assert.deepEqual(
      directory.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [
        ['busy', false],
        ['limited', false],
        ['spare', true],
      ],
    );

    use(openaiChannel(up, { name: 'limited', models: ['my-gpt=sim-chat-fault-429'] }));
    directory.attempts.length = 0;
    await assert.rejects(
      openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hello' }] }),
      OpenAI.RateLimitError,
    );
    assert.equal(directory.attempts.length, 2, 'a short Retry-After is honoured once');
  });

  test('a channel that sends no headers within its timeout is given up for the next one', async () => {
    use(
      openaiChannel(up, { name: 'slow', priority: 2, timeoutMs: 300, headers: { 'x-gatehouse-fault': 'timeout' } }),
      openaiChannel(spare, { name: 'spare', priority: 1 }),
    );
    const started = Date.now();
    const answer = await openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hello' }] });
    assert.ok(answer.choices[0]!.message.content);
    // Far below the 60 s a channel waits by default: the channel's own 300 ms gave it up, however busy the machine.
    assert.ok(Date.now() - started < 30_000, `the call took ${Date.now() - started} ms`);
    assert.deepEqual(
      directory.attempts.map((attempt) => [attempt.channel, attempt.outcome.ok]),
      [
        ['slow', false],
        ['spare', true],
      ],
    );
  });

  test("the caller's x-gatehouse-* headers stay at the front; the channel's extra headers go upstream", async () => {
    use(openaiChannel(up, { headers: { 'x-gatehouse-pace': '1000' } }));
    await openai.chat.completions.create(
      { model: 'my-gpt', messages: [{ role: 'user', content: 'headers' }] },
      { headers: { 'x-gatehouse-latency-ms': '1', 'openai-beta': 'assistants=v2' } },
    );
    await settle();
    const [entry] = await journal(up, '/v1/chat/completions');
    assert.equal(entry.requestHeaders['x-gatehouse-pace'], '1000');
    assert.equal(entry.requestHeaders['x-gatehouse-latency-ms'], undefined);
    assert.equal(entry.requestHeaders['openai-beta'], 'assistants=v2');
  });

  test('another 4xx goes back to the client as it is, without trying the next channel', async () => {
    // A path the upstream does not know (its 404); a refused channel key (401) is the gateway's own error instead (relay-retry-hint.test.ts).
    use(openaiChannel(up, { name: 'first', priority: 2, baseUrl: `${up.url}/v0` }), openaiChannel(spare, { name: 'spare', priority: 1 }));
    await assert.rejects(
      openai.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'x' }] }),
      OpenAI.NotFoundError,
    );
    assert.deepEqual(
      directory.attempts.map((attempt) => attempt.channel),
      ['first'],
    );
  });

  test('no retry after the first byte: an upstream cut mid-stream ends the client stream with the error event', async () => {
    use(
      openaiChannel(up, { name: 'cut', priority: 2, headers: { 'x-gatehouse-fault': 'disconnect' } }),
      openaiChannel(spare, { name: 'spare', priority: 1 }),
    );
    await settle();
    const spareCalls = (await journal(spare, '/v1/chat/completions')).length;
    const stream = await openai.chat.completions.create({
      model: 'my-gpt',
      stream: true,
      messages: [{ role: 'user', content: 'a long story' }],
    });
    let chunks = 0;
    await assert.rejects(
      (async () => {
        for await (const _chunk of stream) chunks++;
      })(),
      (error: unknown) => error instanceof OpenAI.APIError && /broke off/.test(error.message),
    );
    assert.ok(chunks > 0, 'some chunks arrived before the cut');
    const row = usageRows(front).at(-1)!;
    assert.ok(row.input_tokens > 0 && row.output_tokens > 0, `a cut stream is billed for what was delivered: ${JSON.stringify(row)}`);
    await settle();
    assert.equal((await journal(spare, '/v1/chat/completions')).length, spareCalls, 'the second channel was not called');
    assert.deepEqual(
      directory.attempts.map((attempt) => attempt.channel),
      ['cut'],
    );
  });

  test('a client that leaves aborts the upstream stream at once', async () => {
    use(openaiChannel(up, { headers: { 'x-gatehouse-pace': '10' } }));
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: 'my-gpt', stream: true, messages: [{ role: 'user', content: 'a very long story about the sea and its tides' }] },
      { signal: controller.signal },
    );
    try {
      for await (const _chunk of stream) controller.abort();
    } catch {
      // The SDK may report the abort as an error.
    }
    let entry;
    for (let tries = 0; tries < 20 && !entry?.timing?.cut; tries++) {
      await settle();
      [entry] = await journal(up, '/v1/chat/completions');
    }
    // Cut, not ended: the paced stream would have run to its end had the abort not reached the upstream.
    assert.equal(entry.timing.cut, true, 'the upstream saw its stream cut');
  });

  test('a non-chat call for a model only anthropic channels serve is refused naming the kind (only chat is translated)', async () => {
    use({ name: 'claude', kind: 'anthropic', baseUrl: up.url, key: up.token, models: ['only-claude'] });
    await assert.rejects(
      openai.embeddings.create({ model: 'only-claude', input: 'x' }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && /anthropic/.test(error.message),
    );
    assert.equal(directory.attempts.length, 0);
  });

  test('/v1/models lists the relayed models beside the simulated ones; unrouted models are still simulated', async () => {
    const ids = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    assert.ok(ids.includes('my-gpt') && ids.includes('my-embed') && ids.includes('sim-chat'), ids.join());
    const simulated = await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'x' }] });
    assert.ok(simulated.choices[0]!.message.content);
    assert.equal(directory.attempts.length, 0);
  });
});

describe('relay with --unrouted reject', () => {
  let front: TestGateway;
  before(async () => {
    front = await startGateway({ channels: memoryChannels([]), unrouted: 'reject' });
  });
  after(() => front.stop());

  test('a model no channel serves is the protocol own 404', async () => {
    const openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
    await assert.rejects(
      openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'x' }] }),
      OpenAI.NotFoundError,
    );
    const anthropic = new Anthropic({ baseURL: front.url, apiKey: front.token, maxRetries: 0 });
    await assert.rejects(
      anthropic.messages.create({ model: 'sim-claude', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
      Anthropic.NotFoundError,
    );
  });
});

// Proof of cassettes (issue 27): the official SDKs record through a gateway relaying to a second Gatehouse, whose answers then replay byte for byte with that upstream stopped, billed the same, with no channel key in any cassette.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { HttpCassette } from '../../shared/cassette.ts';
import type { JournalPage } from '../../shared/journal.ts';
import type { UsageStats } from '../../shared/usage-stats.ts';
import { memoryChannels, type TestChannel } from '../helpers/channels.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { revealingFiles } from '../helpers/secret-encodings.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** One HTTP answer as the client received it. */
interface Seen {
  call: string;
  status: number;
  body: Buffer;
}

/** Runs `work` with every fetch of this process noted (the three SDKs all use the global fetch): each answer's status and bytes, in order. */
async function seeing(work: () => Promise<void>): Promise<Seen[]> {
  const seen: Seen[] = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const answer = await real(input, init);
    const body = Buffer.from(await answer.arrayBuffer());
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push({ call: `${init?.method ?? 'GET'} ${url.pathname}`, status: answer.status, body });
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
  try {
    await work();
  } finally {
    globalThis.fetch = real;
  }
  return seen;
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/** The session a test team records once and replays in CI: every SDK, streamed and not, a tool loop, embeddings, an image, speech. */
async function session(gateway: TestGateway): Promise<void> {
  const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
  const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: gateway.token, maxRetries: 0 });
  const gemini = new GoogleGenAI({ apiKey: gateway.token, httpOptions: { baseUrl: gateway.url, apiVersion: 'v1beta' } });
  const ask = [{ role: 'user' as const, content: 'Say hello in three words' }];
  await openai.chat.completions.create({ model: 'gpt-rec', messages: ask });
  for await (const chunk of await openai.chat.completions.create({ model: 'gpt-rec', messages: ask, stream: true })) void chunk;
  // A tool loop: the upstream's fixtures call the tool, then answer its result.
  const question = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
  const first = await openai.chat.completions.create({ model: 'gpt-rec', messages: question, tools: [WEATHER_TOOL] });
  const toolCall = first.choices[0]!.message.tool_calls![0]!;
  assert.equal(toolCall.type === 'function' && toolCall.function.name, 'get_weather');
  const second = await openai.chat.completions.create({
    model: 'gpt-rec',
    tools: [WEATHER_TOOL],
    messages: [...question, first.choices[0]!.message, { role: 'tool', tool_call_id: toolCall.id, content: 'sunny' }],
  });
  assert.equal(second.choices[0]!.message.content, 'It is sunny in Paris.');
  // A Responses conversation: the follow-up names the first answer's id.
  const turn = await openai.responses.create({ model: 'gpt-rec', input: 'Name a colour' });
  await openai.responses.create({ model: 'gpt-rec', input: 'And another one', previous_response_id: turn.id });
  await anthropic.messages.create({ model: 'claude-rec', max_tokens: 50, messages: ask });
  await anthropic.messages.stream({ model: 'claude-rec', max_tokens: 50, messages: ask }).finalMessage();
  await gemini.models.generateContent({ model: 'gem-rec', contents: 'Explain how rivers form.' });
  for await (const chunk of await gemini.models.generateContentStream({ model: 'gem-rec', contents: 'Explain how rivers form.' }))
    void chunk;
  await openai.embeddings.create({ model: 'embed-rec', input: 'a sentence to embed' });
  await openai.images.generate({ model: 'image-rec', prompt: 'a red square', size: '256x256', response_format: 'b64_json' });
  await (
    await openai.audio.speech.create({ model: 'tts-rec', voice: 'alloy', input: 'hello there', response_format: 'wav' })
  ).arrayBuffer();
}

async function usageOf(
  gateway: TestGateway,
): Promise<Pick<UsageStats['totals'], 'billedCalls' | 'inputTokens' | 'outputTokens' | 'spend'>> {
  const { body } = await request<UsageStats>(`${gateway.url}/admin/api/usage?days=1`, 'GET', { token: gateway.gateway.adminToken });
  const { billedCalls, inputTokens, outputTokens, spend } = body.totals;
  return { billedCalls, inputTokens, outputTokens, spend };
}

/** Waits until every recorded exchange is on disk (a cassette is saved once its answer ended). */
async function cassettesIn(dir: string, count: number): Promise<string[]> {
  for (let tries = 0; tries < 500; tries += 1) {
    const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
    if (files.length >= count) return files;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return readdirSync(dir).filter((file) => file.endsWith('.json'));
}

describe('record once against a real upstream, replay offline', () => {
  const cassettes = dirs.fresh();
  let recorded: Seen[];
  let recordedUsage: Awaited<ReturnType<typeof usageOf>>;
  let channelKey: string;
  const channels: TestChannel[] = [];

  before(async () => {
    const fixtures = path.join(dirs.fresh(), 'tools.json');
    writeFileSync(
      fixtures,
      JSON.stringify({
        fixtures: [
          { match: { user: 'weather', turn: 0 }, response: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
          { match: { turn: 1, tool_result: 'sunny' }, response: { text: 'It is sunny in Paris.' } },
        ],
      }),
    );
    const up = await startGateway({ fixtures: [fixtures] });
    channelKey = up.token;
    const models = ['embed-rec=sim-embed', 'image-rec=sim-image', 'tts-rec=sim-tts', 'my-echo=sim-echo', '*'];
    channels.push(
      { name: 'up-openai', kind: 'openai', baseUrl: `${up.url}/v1`, key: up.token, models },
      { name: 'up-claude', kind: 'anthropic', baseUrl: up.url, key: up.token, models: ['*'] },
      { name: 'up-gemini', kind: 'gemini', baseUrl: up.url, key: up.token, models: ['*'] },
    );
    const front = await startGateway({ channels: memoryChannels(channels), record: { dir: cassettes } });
    try {
      recorded = await seeing(() => session(front));
      await cassettesIn(cassettes, recorded.length);
      recordedUsage = await usageOf(front);
      // A prompt carrying the channel key (raw and base64) to an echoing upstream: neither the request nor the echo may keep it.
      const openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
      await openai.chat.completions.create({
        model: 'my-echo',
        messages: [{ role: 'user', content: `key ${channelKey} and ${Buffer.from(channelKey).toString('base64')}` }],
      });
      await cassettesIn(cassettes, recorded.length + 1);
    } finally {
      await front.stop();
      // The upstream is gone for good: from here on only the cassettes can answer.
      await up.stop();
    }
  });

  test('every exchange became one readable cassette, none carrying the channel key in any encoding', () => {
    const files = readdirSync(cassettes).filter((file) => file.endsWith('.json'));
    assert.equal(files.length, recorded.length + 1, files.join('\n'));
    assert.ok(
      files.some((file) => /^gpt-rec-say-hello-in-three-words\.[0-9a-f]{16}\.json$/.test(file)),
      files.join('\n'),
    );
    const speech = files
      .map((file) => JSON.parse(readFileSync(path.join(cassettes, file), 'utf8')) as HttpCassette)
      .find((c) => c.request.path === '/v1/audio/speech')!;
    assert.ok('blob' in speech.response.body!, 'the WAV is a blob beside its cassette');
    const streamed = files
      .map((file) => JSON.parse(readFileSync(path.join(cassettes, file), 'utf8')) as HttpCassette)
      .find((c) => c.request.path === '/v1/chat/completions' && c.request.stream)!;
    assert.ok(streamed.response.events!.length > 2, JSON.stringify(streamed.response).slice(0, 600));
    assert.ok(streamed.response.events!.length > 2 && streamed.response.events!.every((event) => event.atMs >= 0));
    assert.equal(streamed.recording.channel, 'up-openai');
    assert.deepEqual(revealingFiles(cassettes, channelKey), []);
  });

  test('with the upstream stopped, a replay gives the same bytes, the same usage and cost, paced as recorded', async () => {
    const waits: number[] = [];
    const replay = await startGateway({
      channels: memoryChannels(channels),
      replay: { dir: cassettes, miss: 'error' },
      replayWait: async (ms) => void waits.push(ms),
    });
    try {
      const replayed = await seeing(() => session(replay));
      assert.deepEqual(
        replayed.map((seen) => seen.call),
        recorded.map((seen) => seen.call),
      );
      for (const [index, seen] of replayed.entries()) {
        assert.equal(seen.status, recorded[index]!.status, seen.call);
        assert.ok(seen.body.equals(recorded[index]!.body), `${seen.call} (#${index}) answers the recorded bytes`);
      }
      assert.deepEqual(await usageOf(replay), recordedUsage);
      // At speed 1 the replay waits, in all, the time each answer took when it was recorded.
      const recordedTime = readdirSync(cassettes)
        .filter((file) => file.endsWith('.json') && !file.startsWith('my-echo'))
        .map((file) => JSON.parse(readFileSync(path.join(cassettes, file), 'utf8')) as HttpCassette)
        .reduce((sum, c) => sum + (c.response.events?.at(-1)?.atMs ?? c.response.chunks?.at(-1)?.atMs ?? c.response.durationMs), 0);
      const waited = waits.reduce((sum, ms) => sum + ms, 0);
      assert.ok(Math.abs(waited - recordedTime) <= recordedTime * 0.1, `waited ${waited} ms for ${recordedTime} ms recorded`);
    } finally {
      await replay.stop();
    }
  });

  /** A replaying gateway over `dir` (as fast as possible), stopped after `work`. */
  async function replaying(
    dir: string,
    miss: 'simulate' | 'relay' | 'error',
    work: (gateway: TestGateway) => Promise<void>,
    ignore?: string[],
  ) {
    const gateway = await startGateway({ channels: memoryChannels(channels), replay: { dir, miss, speed: 0, ...(ignore && { ignore }) } });
    try {
      await work(gateway);
    } finally {
      await gateway.stop();
    }
  }

  test('a call differing only in volatile fields replays; a miss under error names the closest cassette and the first field that differs', async () => {
    await replaying(cassettes, 'error', async (gateway) => {
      const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
      const ask = [{ role: 'user' as const, content: 'Say hello in three words' }];
      const volatile = await openai.chat.completions.create({
        model: 'gpt-rec',
        messages: ask,
        user: 'someone-else',
        metadata: { run: '42' },
      });
      assert.equal(volatile.choices[0]!.message.content, JSON.parse(recorded[0]!.body.toString()).choices[0].message.content);
      const missed = await openai.chat.completions
        .create({ model: 'gpt-rec', messages: ask, temperature: 0.3 })
        .catch((error: unknown) => error);
      assert.ok(missed instanceof OpenAI.APIError, String(missed));
      assert.equal(missed.status, 404);
      assert.match(missed.message, /No cassette matched this call/);
      // The refusal is replay's answer: so its header and journal entry say (not the simulator's).
      assert.equal(missed.headers?.get('x-gatehouse-source'), 'replay');
      const entry = await eventually(async () => {
        const page = await request<JournalPage>(`${gateway.url}/admin/api/journal?outcome=error`, 'GET', {
          token: gateway.gateway.adminToken,
        });
        return page.body.items[0];
      }, 'the journal entry of the refused call');
      assert.equal(entry.source, 'replay');
      assert.equal(entry.cassette, null);
      assert.match(
        missed.message,
        /closest is gpt-rec-say-hello-in-three-words\.[0-9a-f]{16}\.json; the first field that differs is body\.temperature \(recorded absent, this call 0\.3\)/,
      );
    });
    // --replay-ignore drops a field from matching: the same call now replays.
    await replaying(
      cassettes,
      'error',
      async (gateway) => {
        const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
        const answer = await openai.chat.completions.create({
          model: 'gpt-rec',
          messages: [{ role: 'user', content: 'Say hello in three words' }],
          temperature: 0.3,
        });
        assert.equal(answer.choices[0]!.message.content, JSON.parse(recorded[0]!.body.toString()).choices[0].message.content);
      },
      ['temperature'],
    );
  });

  test('a chat cassette recorded from an Anthropic client answers an OpenAI client, rendered through its own protocol', async () => {
    const claude = JSON.parse(recorded.find((seen) => seen.call === 'POST /v1/messages')!.body.toString()) as Anthropic.Message;
    await replaying(cassettes, 'error', async (gateway) => {
      const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
      const answer = await openai.chat.completions.create({
        model: 'claude-rec',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Say hello in three words' }],
      });
      assert.equal(answer.object, 'chat.completion');
      assert.equal(answer.choices[0]!.message.content, claude.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
      assert.deepEqual(
        [answer.usage!.prompt_tokens, answer.usage!.completion_tokens],
        [claude.usage.input_tokens, claude.usage.output_tokens],
      );
      // The Anthropic stream's events become OpenAI chunks carrying the same text and usage.
      let streamed = '';
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of await openai.chat.completions.create({
        model: 'claude-rec',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Say hello in three words' }],
        stream: true,
        stream_options: { include_usage: true },
      })) {
        streamed += chunk.choices[0]?.delta.content ?? '';
        usage = chunk.usage ?? usage;
      }
      assert.equal(streamed, answer.choices[0]!.message.content);
      assert.equal(usage?.completion_tokens, claude.usage.output_tokens);
    });
  });

  test('a damaged cassette is refused naming its file, never served half', async () => {
    const copy = dirs.fresh();
    for (const file of readdirSync(cassettes)) writeFileSync(path.join(copy, file), readFileSync(path.join(cassettes, file)));
    const target = readdirSync(copy).find((file) => file.startsWith('gpt-rec-say-hello'))!;
    const damaged = JSON.parse(readFileSync(path.join(copy, target), 'utf8')) as Record<string, any>;
    delete damaged['response']['status'];
    writeFileSync(path.join(copy, target), JSON.stringify(damaged));
    await replaying(copy, 'error', async (gateway) => {
      const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
      const refused = await openai.chat.completions
        .create({ model: 'gpt-rec', messages: [{ role: 'user', content: 'Say hello in three words' }] })
        .catch((error: unknown) => error);
      assert.ok(refused instanceof OpenAI.APIError, String(refused));
      assert.equal(refused.status, 500);
      assert.ok(refused.message.includes(`${target} response.status: must be a whole number`), refused.message);
    });
  });
});

describe('sequences, redactions and misses recorded on the way', () => {
  const cassettes = dirs.fresh();
  const channels: TestChannel[] = [];
  let up: TestGateway;
  const chat = async (gateway: TestGateway, content: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) => {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'gpt-seq', messages: [{ role: 'user', content }], ...extra });
    return answer.choices[0]!.message.content;
  };

  before(async () => {
    const fixtures = path.join(dirs.fresh(), 'sequence.json');
    writeFileSync(fixtures, JSON.stringify({ fixtures: [{ match: { user: 'count' }, sequence: [{ text: 'one' }, { text: 'two' }] }] }));
    up = await startGateway({ fixtures: [fixtures] });
    channels.push({ name: 'up', kind: 'openai', baseUrl: `${up.url}/v1`, key: up.token, models: ['gpt-echo=sim-echo', '*'] });
  });
  after(() => up.stop());

  test('the same request recorded twice replays in order; redacted values are in no cassette yet still match', async () => {
    const front = await startGateway({
      channels: memoryChannels(channels),
      record: { dir: cassettes, redact: ['$.user', 'messages[0].content'] },
    });
    try {
      assert.deepEqual([await chat(front, 'count please'), await chat(front, 'count please')], ['one', 'two']);
      const echoed = await chat(front, 'my private prompt here', { model: 'gpt-echo', user: 'alice-secret-id' });
      assert.match(echoed!, /my private prompt here/);
      await cassettesIn(cassettes, 3);
    } finally {
      await front.stop();
    }
    // The prompt is redacted (`messages[0].content`), so the names show `redacted` instead of its words.
    const files = readdirSync(cassettes).filter((file) => file.startsWith('gpt-seq-redacted.'));
    assert.equal(files.length, 2, files.join(', '));
    assert.ok(
      files.some((file) => /\.[0-9a-f]{16}\.2\.json$/.test(file)),
      'the second recording carries its sequence',
    );
    assert.deepEqual(revealingFiles(cassettes, 'alice-secret-id'), []);
    assert.deepEqual(revealingFiles(cassettes, 'my private prompt here'), []);
    await replaying(cassettes, 'error', async (gateway) => {
      assert.deepEqual(
        [await chat(gateway, 'count please'), await chat(gateway, 'count please'), await chat(gateway, 'count please')],
        ['one', 'two', 'two'],
      );
      const replayed = await chat(gateway, 'my private prompt here', { model: 'gpt-echo', user: 'alice-secret-id' });
      assert.ok(replayed!.includes('[redacted]') && !replayed!.includes('my private prompt'), replayed!);
    });
  });

  test('under --replay-miss relay a miss is relayed and recorded, then replays with the upstream gone', async () => {
    await replaying(cassettes, 'relay', async (gateway) => {
      assert.equal(await chat(gateway, 'count please'), 'one', 'a recorded call still replays');
      const fresh = await chat(gateway, 'a question never recorded');
      assert.ok(fresh && fresh.length > 0);
      await cassettesIn(cassettes, 4);
    });
    const expected = await chat(up, 'a question never recorded', { model: 'gpt-seq' });
    await up.stop();
    await replaying(cassettes, 'error', async (gateway) => {
      assert.equal(await chat(gateway, 'a question never recorded'), expected);
    });
    up = await startGateway();
  });

  test('simulated answers are recorded only with --record-simulated, marked as simulated', async () => {
    for (const simulated of [false, true]) {
      const dir = dirs.fresh();
      const only = [{ name: 'up', kind: 'openai' as const, baseUrl: `${up.url}/v1`, key: up.token, models: ['gpt-seq'] }];
      const front = await startGateway({ channels: memoryChannels(only), record: { dir, simulated } });
      try {
        assert.ok(await chat(front, 'a simulated question', { model: 'sim-chat' }));
        // A relayed call after it: once its cassette is there, the simulated one would be too.
        assert.ok(await chat(front, 'a relayed question'));
        const files = await cassettesIn(dir, simulated ? 2 : 1);
        const modes = files.map((file) => (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as HttpCassette).recording.mode).sort();
        assert.deepEqual(modes, simulated ? ['relay', 'simulate'] : ['relay']);
      } finally {
        await front.stop();
      }
    }
  });

  async function replaying(dir: string, miss: 'relay' | 'error', work: (gateway: TestGateway) => Promise<void>) {
    const gateway = await startGateway({ channels: memoryChannels(channels), replay: { dir, miss, speed: 0 } });
    try {
      await work(gateway);
    } finally {
      await gateway.stop();
    }
  }
});

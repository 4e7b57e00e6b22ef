// Integration tests of the legacy POST /v1/completions through the official openai SDK: prompts, n, echo, limits and streaming.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { request } from '../helpers/gateway.ts';
import { shapeErrors, TEXT_COMPLETION } from '../helpers/openai-shapes.ts';
import { postForFrames } from '../helpers/sse-frames.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

describe('legacy completions', () => {
  const suite = useOpenAIGateway();

  test('a prompt gets a text_completion with usage; the same call answers the same', async () => {
    const params = { model: 'sim-chat', prompt: 'Write about the harbor at night', max_tokens: 200, seed: 3 };
    const first = await suite.client.completions.create(params);
    assert.equal(first.object, 'text_completion');
    assert.match(first.id, /^cmpl_/);
    assert.equal(first.model, 'sim-chat');
    assert.equal(first.choices.length, 1);
    const choice = first.choices[0]!;
    assert.equal(choice.index, 0);
    assert.equal(choice.finish_reason, 'stop');
    assert.match(choice.text, /[a-z]+ [a-z]+/i);
    assert.ok(first.usage!.prompt_tokens > 0 && first.usage!.completion_tokens > 0);
    assert.equal(first.usage!.total_tokens, first.usage!.prompt_tokens + first.usage!.completion_tokens);
    const second = await suite.client.completions.create(params);
    assert.equal(second.choices[0]!.text, choice.text);
  });

  test('without max_tokens the answer stops at 16 tokens, as on the real API', async () => {
    const completion = await suite.client.completions.create({ model: 'sim-chat', prompt: 'Describe a long journey across mountains' });
    assert.equal(completion.choices[0]!.finish_reason, 'length');
    assert.equal(completion.usage!.completion_tokens, 16);
  });

  test('an array of prompts with n gets prompt × n choices in order; echo prepends the prompt', async () => {
    const completion = await suite.client.completions.create({
      model: 'sim-chat',
      prompt: ['First topic: tea', 'Second topic: rain'],
      n: 2,
      max_tokens: 100,
      echo: true,
    });
    assert.deepEqual(
      completion.choices.map((c) => c.index),
      [0, 1, 2, 3],
    );
    assert.ok(completion.choices[0]!.text.startsWith('First topic: tea'));
    assert.ok(completion.choices[1]!.text.startsWith('First topic: tea'));
    assert.ok(completion.choices[3]!.text.startsWith('Second topic: rain'));
    assert.notEqual(completion.choices[0]!.text, completion.choices[1]!.text);
  });

  test('stop cuts before the stop sequence with finish_reason stop', async () => {
    const full = (await suite.client.completions.create({ model: 'sim-echo', prompt: 'alpha beta gamma delta', max_tokens: 100 }))
      .choices[0]!;
    assert.equal(full.text, 'alpha beta gamma delta');
    const cut = (
      await suite.client.completions.create({ model: 'sim-echo', prompt: 'alpha beta gamma delta', max_tokens: 100, stop: [' gamma'] })
    ).choices[0]!;
    assert.equal(cut.text, 'alpha beta');
    assert.equal(cut.finish_reason, 'stop');
  });

  test('streaming: text pieces join to the non-streamed text, then finish_reason, the usage chunk and [DONE]', async () => {
    const params = { model: 'sim-chat', prompt: 'Explain tides', max_tokens: 60, seed: 9 };
    const whole = await suite.client.completions.create(params);
    const stream = await suite.client.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
    let text = '';
    const finishes: (string | null)[] = [];
    const ids = new Set<string>();
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      ids.add(chunk.id);
      assert.equal(chunk.object, 'text_completion');
      for (const choice of chunk.choices) {
        text += choice.text;
        finishes.push(choice.finish_reason);
      }
      if (chunk.choices.length === 0) usage = chunk.usage!;
    }
    assert.equal(ids.size, 1);
    assert.equal(text, whole.choices[0]!.text);
    assert.equal(finishes.at(-1), whole.choices[0]!.finish_reason);
    assert.ok(finishes.slice(0, -1).every((finish) => finish === null));
    assert.deepEqual(usage, whole.usage);

    const raw = { ...params, prompt: ['Explain tides', 'Explain winds'], n: 2, stream: true, stream_options: { include_usage: true } };
    const { frames } = await postForFrames(`${suite.gw.url}/v1/completions`, raw, { authorization: `Bearer ${suite.gw.token}` });
    assert.equal(frames.at(-1)!.data, '[DONE]');
    const chunks = frames.slice(0, -1).map((frame) => frame.data);
    assert.deepEqual(
      chunks.flatMap((chunk, i) => shapeErrors(chunk, TEXT_COMPLETION, `chunk ${i}`)),
      [],
    );
    assert.deepEqual(
      chunks.filter((chunk) => chunk.choices[0]?.finish_reason).map((chunk) => chunk.choices[0].index),
      [0, 1, 2, 3],
    );
    const plain = await request(`${suite.gw.url}/v1/completions`, 'POST', { token: suite.gw.token, body: params });
    assert.deepEqual(shapeErrors(plain.body, TEXT_COMPLETION, 'text_completion'), []);
  });

  test('a stream fault still strikes after 3 chunks, though the text pieces of a stream at hand leave together', async () => {
    const params = { model: 'sim-chat', prompt: ['Explain tides', 'Explain winds'], max_tokens: 60, stream: true as const };
    for (const fault of ['disconnect', 'malformed']) {
      const stream = await suite.client.completions.create(params, { headers: { 'x-gatehouse-fault': fault } });
      let chunks = 0;
      await assert.rejects(
        (async () => {
          for await (const _chunk of stream) chunks++;
        })(),
        Error,
        fault,
      );
      assert.equal(chunks, 3, fault);
    }
  });

  test('each call is billed at the price table: sim-chat $1 / $3 and sim-echo $0.10 / $0.10 per million tokens', async () => {
    const { tokens, db } = suite.gw.gateway.context;
    const { secret, token } = tokens.create({ account: 'local' });
    const payer = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: secret, maxRetries: 0 });
    const chat = await payer.completions.create({ model: 'sim-chat', prompt: 'Price this answer', max_tokens: 50 });
    const echo = await payer.completions.create({ model: 'sim-echo', prompt: 'Price this echo' });
    const rows = db
      .prepare('SELECT endpoint, model, input_tokens, output_tokens, amount_micros FROM usage_records WHERE token_id = ? ORDER BY id')
      .all(token.token_id) as { endpoint: string; model: string; input_tokens: number; output_tokens: number; amount_micros: number }[];
    assert.deepEqual(rows, [
      {
        endpoint: '/v1/completions',
        model: 'sim-chat',
        input_tokens: chat.usage!.prompt_tokens,
        output_tokens: chat.usage!.completion_tokens,
        amount_micros: chat.usage!.prompt_tokens * 1 + chat.usage!.completion_tokens * 3,
      },
      {
        endpoint: '/v1/completions',
        model: 'sim-echo',
        input_tokens: echo.usage!.prompt_tokens,
        output_tokens: echo.usage!.completion_tokens,
        amount_micros: Math.round(echo.usage!.total_tokens * 0.1),
      },
    ]);
  });

  test('a bad prompt is a 400 naming the parameter', async () => {
    await assert.rejects(
      suite.client.completions.create({ model: 'sim-chat', prompt: [1, 2, 3] as unknown as string }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && (error.error as { param?: string }).param === 'prompt',
    );
  });
});

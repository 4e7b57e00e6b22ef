// A token's quota holds under concurrency: 40 calls at once (relayed, streamed, translated, simulated), through the official SDKs, never charge more than the quota and one call; the calls refused never reach the upstream and cost nothing.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import { blackPng } from '../helpers/png-files.ts';
import { quotaToken, spentMicros } from '../helpers/quota.ts';
import { silentWav16 } from '../helpers/wav-files.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream, type ReceivedRequest } from '../helpers/hostile-upstream.ts';
import { eventually } from '../helpers/eventually.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

const CALLS = 40;
/** What each relayed answer says it used: real-looking, as much output as the caller allowed. */
const REPORTED = { prompt_tokens: 12, completion_tokens: 1000 };
/** The default price (model not listed): 0.5 USD per million input tokens, 1.5 per million output tokens, in micro-units. */
const RELAYED_CALL_MICROS = REPORTED.prompt_tokens * 0.5 + REPORTED.completion_tokens * 1.5;

/** Waits until `done()` holds, looking again every few milliseconds (bounded: a broken gateway fails the test, never hangs it). */
function until(done: () => boolean | Promise<boolean>, what: string): Promise<unknown> {
  return eventually(done, what, { withinMs: 60_000, everyMs: 5 });
}

/** An OpenAI chat answer, whole or as an event stream ending with its usage. */
function answerChat(received: ReceivedRequest, response: ServerResponse): void {
  const body = JSON.parse(received.body.toString('utf8')) as { model: string; stream?: boolean };
  const usage = { ...REPORTED, total_tokens: REPORTED.prompt_tokens + REPORTED.completion_tokens };
  const base = { id: 'chatcmpl-up', created: 1_700_000_000, model: body.model };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    const message = { role: 'assistant', content: 'A held answer.' };
    response.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (fields: object) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...fields })}\n\n`;
  response.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'A held answer.' }, finish_reason: null }] }));
  response.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
  response.write(chunk({ choices: [], usage }));
  response.end('data: [DONE]\n\n');
}

describe('a quota holds under concurrency', () => {
  let upstream: HostileUpstream;
  let server: TestGateway;
  let simulated: TestGateway;
  /** Opens once every call of the round was either refused or received upstream: until then the upstream holds its answers. */
  let gate: { open: Promise<void>; release(): void };
  /** How the upstream answers: as asked, with a 500, not at all (the connection dropped), or with a stream that stops after one chunk. */
  let failing: 'no' | 'error' | 'drop' | 'hang' = 'no';
  const newGate = () => {
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    gate = { open, release };
  };

  before(async () => {
    newGate();
    upstream = await hostileUpstream(async (received, response) => {
      await gate.open;
      if (failing === 'drop') {
        response.socket?.destroy();
        return;
      }
      if (failing === 'error') {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'upstream broke', type: 'server_error' } }));
        return;
      }
      if (failing === 'hang') {
        // One chunk, then nothing until the gateway hangs up.
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const delta = { role: 'assistant', content: 'A held answer.' };
        response.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`);
        return;
      }
      if (received.url.endsWith('/audio/transcriptions')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ text: 'Held words.', usage: { type: 'duration', seconds: 1 } }));
        return;
      }
      if (/\/images\/(generations|edits|variations)$/.test(received.url)) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ created: 1_700_000_000, data: [{ url: 'https://upstream.example/image.png' }] }));
        return;
      }
      answerChat(received, response);
    });
    server = await gatewayBefore(upstream, 'openai');
    simulated = await startGateway();
  });
  after(async () => {
    await server.stop();
    await simulated.stop();
    await upstream.close();
  });

  /**
   * Sends CALLS calls at once through `call`, holds the upstream's answers until each call was refused or reached it, then
   * lets them finish. Returns the answered and refused counts and the upstream requests the round made.
   */
  async function round(call: () => Promise<unknown>, isQuotaRefusal: (error: unknown) => boolean) {
    newGate();
    const seenBefore = upstream.requests.length;
    let refused = 0;
    const calls = Array.from({ length: CALLS }, () =>
      call().then(
        () => 'answered' as const,
        (error: unknown) => {
          assert.ok(isQuotaRefusal(error), `refused in the protocol's quota error, got ${String(error)}`);
          refused++;
          return 'refused' as const;
        },
      ),
    );
    await until(() => refused + (upstream.requests.length - seenBefore) >= CALLS, 'every call refused or upstream');
    gate.release();
    const outcomes = await Promise.all(calls);
    const answered = outcomes.filter((outcome) => outcome === 'answered').length;
    return { answered, refused, reachedUpstream: upstream.requests.length - seenBefore };
  }

  /** The checks of a round of relayed calls: the refused never went upstream nor were charged; the total stays within the quota and one call. */
  async function checkRelayed(
    tokenId: string,
    quotaMicros: number,
    outcome: { answered: number; refused: number; reachedUpstream: number },
    callMicros = RELAYED_CALL_MICROS,
  ): Promise<void> {
    assert.ok(outcome.refused > 0, 'some calls are refused');
    assert.ok(outcome.answered > 0, 'some calls are answered');
    assert.equal(outcome.reachedUpstream, outcome.answered, 'a refused call never reaches the upstream');
    const expected = outcome.answered * callMicros;
    await until(async () => (await spentMicros(server, tokenId)) >= expected, 'the answered calls charged');
    const spent = await spentMicros(server, tokenId);
    assert.equal(spent, expected, 'each answered call is charged its usage, and a refused one nothing');
    assert.ok(spent <= quotaMicros + callMicros, `charged ${spent} µ on a quota of ${quotaMicros} µ`);
  }

  const openaiRefusal = (error: unknown) => error instanceof OpenAI.PermissionDeniedError && /quota/.test(error.message);

  test('relayed JSON calls (openai SDK): the calls that could pass the quota are refused before they go upstream', async () => {
    const { secret, tokenId } = await quotaToken(server, 'quota-relayed', 0.01);
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const outcome = await round(
      () => client.chat.completions.create({ model: 'up-model', max_tokens: 1000, messages: [{ role: 'user', content: 'hold on' }] }),
      openaiRefusal,
    );
    await checkRelayed(tokenId, 10_000, outcome);
  });

  test('relayed streams (openai SDK): refused before the stream opens, and the streams that ran are charged their usage', async () => {
    const { secret, tokenId } = await quotaToken(server, 'quota-streamed', 0.01);
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const outcome = await round(async () => {
      const stream = await client.chat.completions.create({
        model: 'up-model',
        max_tokens: 1000,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hold on' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      assert.equal(text, 'A held answer.');
    }, openaiRefusal);
    await checkRelayed(tokenId, 10_000, outcome);
  });

  test('translated calls (anthropic SDK before an openai channel): refused in the Anthropic error shape, never sent upstream', async () => {
    const { secret, tokenId } = await quotaToken(server, 'quota-translated', 0.01);
    const client = new Anthropic({ apiKey: secret, baseURL: server.url, maxRetries: 0 });
    const anthropicRefusal = (error: unknown) =>
      error instanceof Anthropic.PermissionDeniedError && (error.error as { error?: { type?: string } }).error?.type === 'permission_error';
    const outcome = await round(async () => {
      const message = await client.messages.create({
        model: 'up-model',
        max_tokens: 1000,
        messages: [{ role: 'user', content: 'hold on' }],
      });
      assert.equal(message.content[0]?.type === 'text' && message.content[0].text, 'A held answer.');
    }, anthropicRefusal);
    await checkRelayed(tokenId, 10_000, outcome);
  });

  test('relayed image generations (openai SDK) hold their price: no more run at once than the quota pays for', async () => {
    // 1024×1024 images cost 0.02 USD each: a quota of 0.05 pays for two.
    const { secret, tokenId } = await quotaToken(server, 'quota-images', 0.05);
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const outcome = await round(
      () => client.images.generate({ model: 'up-image', prompt: 'a held image', size: '1024x1024' }),
      openaiRefusal,
    );
    assert.equal(outcome.answered, 2);
    await checkRelayed(tokenId, 50_000, outcome, 20_000);
  });

  test('relayed image edits and variations (openai SDK) hold their price before the form goes on, and give it back', async () => {
    // 1024×1024 images cost 0.02 USD each: 0.056 pays for two at once, and leaves one 256×256 image (0.016) once they are charged.
    const png = () => toFile(blackPng(64, 64), 'in.png', { type: 'image/png' });
    for (const kind of ['edit', 'variation'] as const) {
      const { secret, tokenId } = await quotaToken(server, `quota-${kind}s`, 0.056);
      const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
      // `n` and `size` come before the model: the gateway reads them before it relays the rest.
      const call = async (size: '1024x1024' | '256x256') =>
        kind === 'edit'
          ? client.images.edit({ prompt: 'held', n: 1, size, image: await png(), model: 'up-image' })
          : client.images.createVariation({ n: 1, size, image: await png(), model: 'up-image' });
      const outcome = await round(() => call('1024x1024'), openaiRefusal);
      assert.equal(outcome.answered, 2);
      await checkRelayed(tokenId, 56_000, outcome, 20_000);
      newGate();
      gate.release();
      await call('256x256');
    }
  });

  test('a relayed edit whose count and size follow its model holds the most an edit costs: refused on a small quota, never sent', async () => {
    const { secret } = await quotaToken(server, 'quota-edit-order', 0.056);
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const seenBefore = upstream.requests.length;
    const image = await toFile(blackPng(64, 64), 'in.png', { type: 'image/png' });
    const error = await client.images
      .edit({ model: 'up-image', prompt: 'held', image, n: 1, size: '1024x1024' })
      .catch((caught: unknown) => caught);
    assert.ok(openaiRefusal(error), String(error));
    assert.equal(upstream.requests.length, seenBefore);
  });

  test('relayed transcriptions (openai SDK) hold the most audio their upload can carry, and give back what was not used', async () => {
    // A 16 kB upload reserves 17 s (8 kbit/s at least), 1700 µ: 0.005 USD holds two at once; each is charged the 1 s heard (100 µ).
    const { secret, tokenId } = await quotaToken(server, 'quota-transcribed', 0.005);
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const wav = silentWav16(8_000, 1);
    const call = async () =>
      client.audio.transcriptions.create({ file: await toFile(wav, 'held.wav', { type: 'audio/wav' }), model: 'up-transcribe' });
    const outcome = await round(call, openaiRefusal);
    assert.equal(outcome.answered, 2);
    await checkRelayed(tokenId, 5_000, outcome, 100);
    newGate();
    gate.release();
    assert.equal((await call()).text, 'Held words.');
  });

  test('simulated edits, variations and transcriptions (openai SDK): the total stays within the quota', async () => {
    const wav = silentWav16(8_000, 1);
    const png = () => toFile(blackPng(64, 64), 'in.png', { type: 'image/png' });
    const kinds = {
      // Two 1024×1024 images (0.02 USD each) and a half.
      edit: { quota: 0.05, call: async (client: OpenAI) => client.images.edit({ prompt: 'held', size: '1024x1024', image: await png() }) },
      variation: { quota: 0.05, call: async (client: OpenAI) => client.images.createVariation({ size: '1024x1024', image: await png() }) },
      // Two seconds of audio (100 µ each) and a half.
      transcription: {
        quota: 0.00025,
        call: async (client: OpenAI) =>
          client.audio.transcriptions.create({ file: await toFile(wav, 'held.wav', { type: 'audio/wav' }), model: 'whisper-1' }),
      },
    };
    for (const [kind, { quota, call }] of Object.entries(kinds)) {
      const { secret, tokenId } = await quotaToken(simulated, `quota-sim-${kind}`, quota);
      const client = new OpenAI({ apiKey: secret, baseURL: `${simulated.url}/v1`, maxRetries: 0 });
      let refused = 0;
      await Promise.all(
        Array.from({ length: CALLS }, () =>
          call(client).catch((error: unknown) => {
            assert.ok(openaiRefusal(error), `${kind}: ${String(error)}`);
            refused++;
          }),
        ),
      );
      assert.ok(refused > 0, `${kind}: some calls are refused`);
      const spent = await spentMicros(simulated, tokenId);
      assert.ok(spent > 0 && spent <= quota * 1_000_000, `${kind}: charged ${spent} µ on a quota of ${quota * 1_000_000} µ`);
    }
  });

  test('a reservation is given back however its call ends: an upstream error, no upstream answer, a client gone mid-stream', async () => {
    // 2000 µ: one call of up to 1000 output tokens (about 1505 µ) fits at a time.
    const { secret, tokenId } = await quotaToken(server, 'quota-released', 0.002);
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ask = { model: 'up-model', max_tokens: 1000, messages: [{ role: 'user' as const, content: 'hold on' }] };
    gate.release();
    try {
      for (const how of ['error', 'drop'] as const) {
        failing = how;
        const error = await client.chat.completions.create(ask).catch((caught: unknown) => caught);
        assert.ok(error instanceof OpenAI.APIError && !(error instanceof OpenAI.PermissionDeniedError), String(error));
      }
      failing = 'hang';
      const stream = await client.chat.completions.create({ ...ask, stream: true });
      for await (const _chunk of stream) break;
      // The cut stream is charged what it delivered (input estimate and 4 output tokens), once the gateway saw the client go.
      await until(async () => (await spentMicros(server, tokenId)) > 0, 'the cut stream charged');
      failing = 'no';
      const answer = await client.chat.completions.create(ask);
      assert.equal(answer.choices[0]!.message.content, 'A held answer.');
    } finally {
      failing = 'no';
    }
  });

  test('simulated streams (openai SDK, paced): no more run at once than the quota holds, and the total stays within it', async () => {
    // sim-chat: 1 USD per million input tokens, 3 per million output; each call may produce 30 tokens (90 µ) and reads about 10.
    const { secret, tokenId } = await quotaToken(simulated, 'quota-simulated', 0.0005);
    const client = new OpenAI({ apiKey: secret, baseURL: `${simulated.url}/v1`, maxRetries: 0 });
    let refused = 0;
    const outcomes = await Promise.all(
      Array.from({ length: CALLS }, async () => {
        try {
          const stream = await client.chat.completions.create(
            { model: 'sim-chat', max_tokens: 30, stream: true, messages: [{ role: 'user', content: 'talk slowly to me' }] },
            // Ten tokens a second: each answer runs for seconds, so the calls overlap.
            { headers: { 'x-gatehouse-pace': '10' } },
          );
          for await (const _chunk of stream);
          return true;
        } catch (error) {
          assert.ok(openaiRefusal(error), String(error));
          refused++;
          return false;
        }
      }),
    );
    assert.ok(refused > 0, 'some calls are refused');
    assert.ok(outcomes.some(Boolean), 'some calls are answered');
    const oneCall = 10 * 1 + 30 * 3 + 20;
    await until(async () => (await spentMicros(simulated, tokenId)) > 0, 'the answered calls charged');
    const spent = await spentMicros(simulated, tokenId);
    assert.ok(spent <= 500 + oneCall, `charged ${spent} µ on a quota of 500 µ`);
  });
});

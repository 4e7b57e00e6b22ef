// Upstream usage is not believed blindly: a relayed or translated answer that reports counts no request and answer could hold (1e300, negative, a string, a huge output) is charged the gateway's estimate, and its journal entry says so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { accountEntry } from '../helpers/account-entry.ts';
import { request, type TestGateway } from '../helpers/gateway.ts';

const ANSWER = 'A plain answer.';
/** The gateway's estimate of the calls below: `bound me` (2 tokens) in one user turn, plus 3 per turn and 3 per request; the answer is 4 tokens. */
const ESTIMATE = { inputTokens: 8, outputTokens: 4 };

describe('upstream usage is bounded', () => {
  let upstream: HostileUpstream;
  let server: TestGateway;
  /** The usage object the upstream sends next, as raw JSON text (so `1e300` goes out as written). */
  let usageText = '';

  before(async () => {
    upstream = await hostileUpstream((received, response) => {
      const body = JSON.parse(received.body.toString('utf8')) as { model: string; stream?: boolean };
      const base = `"id":"chatcmpl-up","created":1700000000,"model":${JSON.stringify(body.model)}`;
      if (!body.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        const message = JSON.stringify({ role: 'assistant', content: ANSWER });
        response.end(
          `{${base},"object":"chat.completion","choices":[{"index":0,"message":${message},"finish_reason":"stop"}],"usage":${usageText}}`,
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (fields: string) => `data: {${base},"object":"chat.completion.chunk",${fields}}\n\n`;
      response.write(
        chunk(`"choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(ANSWER)}},"finish_reason":null}]`),
      );
      response.write(chunk(`"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]`));
      response.write(chunk(`"choices":[],"usage":${usageText}`));
      response.end('data: [DONE]\n\n');
    });
    server = await gatewayBefore(upstream, 'openai');
  });
  after(async () => {
    await server.stop();
    await upstream.close();
  });

  const admin = (path: string, method = 'GET', body?: unknown) =>
    request(`${server.url}/admin/api${path}`, method, { token: server.gateway.adminToken, ...(body !== undefined && { body }) });

  /** A token of its own account, so each case finds its journal entry and spent amount. */
  async function tokenOf(account: string): Promise<{ secret: string; tokenId: string }> {
    const created = await admin('/tokens', 'POST', { account });
    return { secret: created.body.secret, tokenId: created.body.token.token_id };
  }

  const entryOf = (account: string) => accountEntry(server, account);

  async function spentMicros(tokenId: string): Promise<number> {
    const token = ((await admin('/tokens')).body as { token_id: string; used: number }[]).find((item) => item.token_id === tokenId)!;
    return Math.round(token.used * 1_000_000);
  }

  const ask = { model: 'up-model', messages: [{ role: 'user' as const, content: 'bound me' }] };

  /** The answer's text to `ask`, relayed as JSON or as a stream, with the token `secret`. */
  async function relayed(secret: string, stream: boolean): Promise<string> {
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    if (!stream) return (await client.chat.completions.create(ask)).choices[0]!.message.content ?? '';
    let text = '';
    for await (const chunk of await client.chat.completions.create({ ...ask, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  }

  /** The entry of `account` was charged the estimate (`expected` tokens, priced at the default 0.5 and 1.5 USD per million) and notes why. */
  async function chargedTheEstimate(account: string, expected: { inputTokens: number; outputTokens: number }, named: RegExp) {
    const entry = await entryOf(account);
    assert.equal(entry.usage.inputTokens, expected.inputTokens);
    assert.equal(entry.usage.outputTokens, expected.outputTokens);
    assert.equal(entry.usage.cost, (expected.inputTokens * 0.5 + expected.outputTokens * 1.5) / 1_000_000);
    assert.equal(entry.notes?.length, 1, JSON.stringify(entry.notes));
    assert.match(entry.notes[0], /^Upstream usage out of bounds \(.*\); charged the estimate\.$/);
    assert.match(entry.notes[0], named);
  }

  for (const stream of [false, true]) {
    const shape = stream ? 'stream' : 'JSON answer';
    test(`a relayed ${shape} reporting prompt_tokens 1e300 is charged the estimate, and the journal says so`, async () => {
      usageText = '{"prompt_tokens":1e300,"completion_tokens":4,"total_tokens":1e300}';
      const account = `bound-huge-${stream}`;
      const { secret, tokenId } = await tokenOf(account);
      assert.equal(await relayed(secret, stream), ANSWER);
      await chargedTheEstimate(account, ESTIMATE, /input tokens 1e\+300/);
      assert.equal(await spentMicros(tokenId), ESTIMATE.inputTokens * 0.5 + ESTIMATE.outputTokens * 1.5);
    });

    test(`a relayed ${shape} reporting negative, string or huge counts is charged the estimate for each`, async () => {
      const cases = [
        // A count that is no whole non-negative number is read as NaN.
        ['{"prompt_tokens":-50,"completion_tokens":4}', /input tokens NaN/],
        ['{"prompt_tokens":"NaN","completion_tokens":"12"}', /input tokens NaN, output tokens NaN/],
        ['{"prompt_tokens":8,"completion_tokens":5000000000}', /output tokens 5000000000/],
      ] as const;
      for (const [index, [text, named]] of cases.entries()) {
        usageText = text;
        const account = `bound-odd-${stream}-${index}`;
        assert.equal(await relayed((await tokenOf(account)).secret, stream), ANSWER);
        await chargedTheEstimate(account, ESTIMATE, named);
      }
    });
  }

  test('plausible usage is charged as reported, with no note', async () => {
    usageText = '{"prompt_tokens":12,"completion_tokens":20,"total_tokens":32}';
    for (const stream of [false, true]) {
      const account = `bound-plausible-${stream}`;
      await relayed((await tokenOf(account)).secret, stream);
      const entry = await entryOf(account);
      assert.deepEqual(entry.usage, { inputTokens: 12, outputTokens: 20, cost: (12 * 0.5 + 20 * 1.5) / 1_000_000 });
      assert.equal(entry.notes, undefined);
    }
  });

  test('a translated stream (anthropic SDK before an openai channel) reporting 1e300 is charged the estimate, and the journal says so', async () => {
    usageText = '{"prompt_tokens":1e300,"completion_tokens":1e300}';
    const account = 'bound-translated';
    const { secret } = await tokenOf(account);
    const client = new Anthropic({ apiKey: secret, baseURL: server.url, maxRetries: 0 });
    let text = '';
    const stream = client.messages.stream({ ...ask, max_tokens: 100 });
    for await (const event of stream)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    assert.equal(text, ANSWER);
    await chargedTheEstimate(account, ESTIMATE, /input tokens 1e\+300, output tokens 1e\+300/);
  });
});

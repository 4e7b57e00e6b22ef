// A token's quota holds for batch lines: each line holds what its route would before it runs, so a batch of 40 lines never spends past the quota; a line that does not fit answers the quota's 403 in its output line and never reaches the upstream.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { jsonl, runUntil } from '../helpers/batches.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { quotaToken, spentMicros } from '../helpers/quota.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

const LINES = 40;
/** Each answer's usage: 12 input tokens, 1000 output; at the default price 0.5 and 1.5 USD per million, 1506 µ. */
const LINE_MICROS = 12 * 0.5 + 1000 * 1.5;

describe('a quota holds for batch lines', () => {
  const clock = manualClock();
  let upstream: HostileUpstream;
  let gw: TestGateway;
  /** The upstream's answers wait here until the test lets them go. */
  const held: ServerResponse[] = [];
  let holding = true;
  const answer = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(chatCompletion('gpt-relay', 'A held answer.', { tokens: [12, 1000] })));
  };
  before(async () => {
    upstream = await hostileUpstream((_, response) => {
      if (holding) held.push(response);
      else answer(response);
    });
    const channel = {
      name: 'upstream',
      kind: 'openai' as const,
      baseUrl: `${upstream.url}/v1`,
      key: 'sk-upstream-key',
      models: ['gpt-relay'],
    };
    gw = await startGateway({ clock, channels: memoryChannels([channel]) });
  });
  after(async () => {
    await gw.stop();
    await upstream.close();
  });

  test('40 relayed chat lines on a quota for three: three run, the rest answer 403 in their lines, and the holds are given back', async () => {
    // 5000 µ: each line holds its input estimate and 1000 output tokens (about 1510 µ), so three fit at once.
    const { secret, tokenId } = await quotaToken(gw, 'quota-batch', 0.005);
    const client = new OpenAI({ apiKey: secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const lines = Array.from({ length: LINES }, (_, index) => ({
      custom_id: `line-${index}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'gpt-relay', max_tokens: 1000, messages: [{ role: 'user', content: 'hold on' }] },
    }));
    const file = await client.files.create({ file: await toFile(Buffer.from(jsonl(lines)), 'input.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await runUntil(client, clock, batch.id, 'in_progress');
    // Every line starts while the first ones wait on the upstream: the held lines decide what the others may spend.
    for (let step = 0; step < 400 && (await client.batches.retrieve(batch.id)).request_counts?.failed !== LINES - held.length; step++) {
      clock.advance(250);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(held.length, 3, 'three lines reach the upstream');
    holding = false;
    for (const response of held) answer(response);
    const done = (await runUntil(client, clock, batch.id, 'completed')).batch;
    assert.deepEqual(done.request_counts, { total: LINES, completed: 3, failed: LINES - 3 });
    assert.equal(upstream.requests.length, 3, 'a refused line never reaches the upstream');

    const output = await (await client.files.content(done.output_file_id!)).text();
    const errors = await (await client.files.content(done.error_file_id!)).text();
    const refusals = errors
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { response: { status_code: number; body: { error: { message: string } } } });
    assert.equal(output.trim().split('\n').length, 3);
    for (const refusal of refusals) {
      assert.equal(refusal.response.status_code, 403);
      assert.match(refusal.response.body.error.message, /quota/);
    }
    const spent = await spentMicros(gw, tokenId);
    assert.equal(spent, 3 * LINE_MICROS, 'the three lines are charged their usage, the refused ones nothing');
    // 482 µ left: a short chat fits only once the lines hold nothing.
    const chat = await client.chat.completions.create({ model: 'gpt-relay', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(chat.choices[0]?.message.content, 'A held answer.');
  });
});

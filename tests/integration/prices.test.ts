// Integration tests of the owner's price table: the admin API and `gatehouse price` change what the next relayed or simulated call is charged.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels } from '../helpers/channels.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

describe('the price table', () => {
  let up: TestGateway;
  let front: TestGateway;
  let openai: OpenAI;
  const admin = (method: string, path: string, body?: unknown) =>
    request(`${front.url}/admin/api/prices${path}`, method, { token: front.gateway.adminToken, ...(body !== undefined && { body }) });
  /** The amount (micro-USD) and token counts of the last charge (a relayed answer's charge is committed first: it waits for no one). */
  const lastCharge = () => {
    front.gateway.context.writes.flush();
    return front.gateway.context.db
      .prepare('SELECT model, input_tokens, output_tokens, amount_micros FROM usage_records ORDER BY id DESC LIMIT 1')
      .get() as { model: string; input_tokens: number; output_tokens: number; amount_micros: number };
  };
  const chat = (model: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'price me' }] });
  const expected = (input: number, output: number) => {
    const { input_tokens, output_tokens } = lastCharge();
    return Math.round(input_tokens * input + output_tokens * output);
  };

  before(async () => {
    up = await startGateway();
    const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${up.url}/v1`, key: up.token, models: ['my-gpt=sim-chat'] }]);
    front = await startGateway({ channels });
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
  });
  after(async () => {
    await front.stop();
    await up.stop();
  });

  test('the table starts from the documented prices; a model without its own row is charged at default', async () => {
    const { status, body } = await admin('GET', '');
    assert.equal(status, 200);
    assert.equal(body[0].model, 'default');
    assert.deepEqual(
      body.find((row: { model: string }) => row.model === 'sim-chat'),
      {
        model: 'sim-chat',
        input_per_mtok: 1,
        output_per_mtok: 3,
        per_call: 0,
        source: 'default',
        charged_as: 'sim-chat',
        documented: { input_per_mtok: 1, output_per_mtok: 3, per_call: 0 },
        updated_at: null,
      },
    );
    const unknown = await admin('GET', '/my-gpt');
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.charged_as, 'default');
    assert.equal(unknown.body.input_per_mtok, 0.5);
    await chat('my-gpt');
    assert.equal(lastCharge().amount_micros, expected(0.5, 1.5), 'a relayed model with no row of its own costs the default price');
  });

  test('a price set by the admin API charges the next relayed and simulated call, without a restart; a reset restores the default', async () => {
    const set = await admin('PUT', '/my-gpt', { input_per_mtok: 2.5, output_per_mtok: 10 });
    assert.equal(set.status, 200);
    assert.deepEqual([set.body.source, set.body.charged_as, set.body.input_per_mtok, set.body.documented], ['owner', 'my-gpt', 2.5, null]);
    await chat('my-gpt');
    assert.equal(lastCharge().model, 'my-gpt');
    assert.equal(lastCharge().amount_micros, expected(2.5, 10));

    assert.equal((await admin('PUT', '/sim-chat', { input_per_mtok: 7, output_per_mtok: 0.0375 })).status, 200);
    await chat('sim-chat');
    assert.equal(lastCharge().amount_micros, expected(7, 0.0375), 'a simulated call too');

    const reset = await admin('DELETE', '/sim-chat');
    assert.deepEqual([reset.status, reset.body.source, reset.body.input_per_mtok], [200, 'default', 1]);
    await chat('sim-chat');
    assert.equal(lastCharge().amount_micros, expected(1, 3));

    assert.equal((await admin('PUT', '/default', { input_per_mtok: 0, output_per_mtok: 0 })).status, 200);
    await chat('unpriced-model-echo');
    assert.equal(lastCharge().amount_micros, 0, 'the default row, changed, prices every model without a row');
    await admin('DELETE', '/default');
    const removed = await admin('DELETE', '/my-gpt');
    assert.deepEqual([removed.body.charged_as, removed.body.input_per_mtok], ['default', 0.5]);
  });

  test('bad prices are a 400 naming the field and change nothing; a model name with a slash is one row', async () => {
    for (const [body, param] of [
      [{ input_per_mtok: -1, output_per_mtok: 1 }, 'input_per_mtok'],
      [{ input_per_mtok: 1, output_per_mtok: '2' }, 'output_per_mtok'],
      [{ input_per_mtok: 1, output_per_mtok: 1.00001 }, 'output_per_mtok'],
      [{ input_per_mtok: 1 }, 'output_per_mtok'],
      [{ input_per_mtok: 1, output_per_mtok: 1, cached: 1 }, 'cached'],
    ] as const) {
      const refused = await admin('PUT', '/sim-echo', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error.param, param);
    }
    assert.equal((await admin('GET', '/sim-echo')).body.source, 'default');
    const long = await admin('PUT', `/${'m'.repeat(300)}`, { input_per_mtok: 1, output_per_mtok: 1 });
    assert.equal(long.status, 400);
    assert.match(long.body.error.message, /too long/);

    const slashed = await admin('PUT', `/${encodeURIComponent('meta/llama-3')}`, { input_per_mtok: 0.2, output_per_mtok: 0.4 });
    assert.equal(slashed.status, 200);
    assert.equal(slashed.body.model, 'meta/llama-3');
    assert.ok((await admin('GET', '')).body.some((row: { model: string }) => row.model === 'meta/llama-3'));
    await admin('DELETE', `/${encodeURIComponent('meta/llama-3')}`);
  });

  test('`gatehouse price` edits the table of a running server: the next call is charged at it; usage errors exit with code 2', async () => {
    const price = (...args: string[]) => runCliAsync(['price', ...args, '--data-dir', front.dataDir]);
    const set = await price('set', 'my-gpt', '--input-per-mtok', '3', '--output-per-mtok', '12.5');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /^my-gpt\tinput 3\.0000 USD per 1M tokens\toutput 12\.5000 USD per 1M tokens\tset by the owner$/m);
    await chat('my-gpt');
    assert.equal(lastCharge().amount_micros, expected(3, 12.5));

    const listed = await price('list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as { model: string; source: string }[];
    assert.equal(rows.find((row) => row.model === 'my-gpt')?.source, 'owner');
    assert.equal((await admin('GET', '/my-gpt')).body.output_per_mtok, 12.5, 'the admin API sees what the CLI set');

    const reset = await price('reset', 'my-gpt');
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /no price of its own: charged as default/);

    for (const args of [
      ['set', 'my-gpt', '--input-per-mtok', '1'],
      ['set', 'my-gpt', '--input-per-mtok', 'lots', '--output-per-mtok', '1'],
      ['set', 'my-gpt', '--input-per-mtok', '1', '--output-per-mtok', '0.00001'],
      ['set', 'm'.repeat(300), '--input-per-mtok', '1', '--output-per-mtok', '1'],
      ['reset'],
      ['frobnicate'],
    ]) {
      const refused = await price(...args);
      assert.equal(refused.code, 2, args.join(' '));
      assert.match(refused.stderr, /^gatehouse: /);
    }
    assert.equal((await admin('GET', '/my-gpt')).body.charged_as, 'default', 'nothing was changed by a refused command');
  });
});

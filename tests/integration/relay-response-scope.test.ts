// Integration tests: a relayed Responses id belongs to the account that created it; another account's follow-up, retrieve, delete, input items, cancel or batch line answers as for an unknown id and never reaches the channel.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { jsonl, runUntil, upload } from '../helpers/batches.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { manualClock } from '../helpers/clock.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';

/** A completed Response object as an upstream answers a create, numbered so each call gets its own id. */
function upstreamResponse(serial: number) {
  return {
    id: `resp_upstream_${serial}`,
    object: 'response',
    created_at: 1_790_000_000,
    status: 'completed',
    model: 'up-model',
    output: [
      {
        type: 'message',
        id: `msg_${serial}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'the word is heron', annotations: [] }],
      },
    ],
    usage: { input_tokens: 5, output_tokens: 4, total_tokens: 9 },
  };
}

describe('relayed response ids are scoped by account', () => {
  const clock = manualClock();
  let upstream: HostileUpstream;
  let gw: TestGateway;
  let alice: OpenAI;
  let bob: OpenAI;

  before(async () => {
    let serial = 0;
    upstream = await hostileUpstream((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(upstreamResponse(++serial)));
    });
    gw = await startGateway({
      clock,
      channels: memoryChannels([
        { name: 'shared', kind: 'openai', baseUrl: upstream.url, key: 'sk-shared-channel-key-0123456789', models: ['*'] },
      ]),
    });
    alice = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    // The second account and its token, made as the owner makes them: through the admin API.
    const made = await request(`${gw.url}/admin/api/tokens`, 'POST', {
      token: gw.gateway.adminToken,
      body: { account: 'bob', name: 'laptop' },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    bob = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: made.body.secret, maxRetries: 0 });
  });
  /** Runs `line` alone in a /v1/responses batch as bob, asserts it failed, and returns its line of the error file. */
  const bobFailedLine = async (line: unknown) => {
    const input = await upload(bob, jsonl([line]));
    const run = await bob.batches.create({ input_file_id: input.id, endpoint: '/v1/responses', completion_window: '24h' });
    const { batch } = await runUntil(bob, clock, run.id, 'completed');
    assert.deepEqual(batch.request_counts, { total: 1, completed: 0, failed: 1 });
    const [answer] = (await (await bob.files.content(batch.error_file_id!)).text())
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    return answer;
  };
  after(async () => {
    await gw.stop();
    await upstream.close();
  });

  /** The error `client` gets from `attempt`, which must fail. */
  const failure = async (attempt: Promise<unknown>) => {
    const error = await attempt.then(
      () => assert.fail('expected a refusal'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof OpenAI.APIError, String(error));
    return error;
  };

  test("another account's id as previous_response_id is a 404 like an unknown id, and nothing reaches the upstream", async () => {
    const first = await alice.responses.create({ model: 'gpt-4.1', input: 'remember the word heron' });
    assert.equal(first.id, 'resp_upstream_1');
    const sent = upstream.requests.length;

    const theirs = await failure(bob.responses.create({ model: 'gpt-4.1', input: 'what was the word?', previous_response_id: first.id }));
    const unknown = await failure(
      bob.responses.create({ model: 'gpt-4.1', input: 'what was the word?', previous_response_id: 'resp_never_made' }),
    );
    assert.ok(theirs instanceof OpenAI.NotFoundError, `status ${theirs.status}`);
    assert.deepEqual(
      { status: theirs.status, type: theirs.type, code: theirs.code, param: theirs.param, message: theirs.message.replace(first.id, 'ID') },
      {
        status: unknown.status,
        type: unknown.type,
        code: unknown.code,
        param: unknown.param,
        message: unknown.message.replace('resp_never_made', 'ID'),
      },
      'no hint that the id exists',
    );
    assert.equal(theirs.param, 'previous_response_id');
    assert.equal(upstream.requests.length, sent, 'the upstream received nothing from the other account');

    // Its owner still continues it, at the channel.
    const next = await alice.responses.create({ model: 'gpt-4.1', input: 'what was the word?', previous_response_id: first.id });
    assert.equal(next.output_text, 'the word is heron');
    assert.equal(upstream.requests.length, sent + 1);
    assert.equal(JSON.parse(upstream.requests.at(-1)!.body.toString('utf8')).previous_response_id, first.id);
  });

  test("another account's id answers retrieve, delete, input items and cancel as an unknown one, without the upstream", async () => {
    const created = await alice.responses.create({ model: 'gpt-4.1', input: 'only mine' });
    const sent = upstream.requests.length;
    for (const [what, attempt, unknown] of [
      ['retrieve', bob.responses.retrieve(created.id), bob.responses.retrieve('resp_never_made')],
      ['delete', bob.responses.delete(created.id), bob.responses.delete('resp_never_made')],
      ['input items', bob.responses.inputItems.list(created.id), bob.responses.inputItems.list('resp_never_made')],
      ['cancel', bob.responses.cancel(created.id), bob.responses.cancel('resp_never_made')],
    ] as const) {
      const [theirs, never] = [await failure(attempt), await failure(unknown)];
      assert.equal(theirs.status, 404, what);
      assert.deepEqual(
        [theirs.type, theirs.message.replace(created.id, 'ID')],
        [never.type, never.message.replace('resp_never_made', 'ID')],
        what,
      );
    }
    assert.equal(upstream.requests.length, sent, 'the upstream received nothing from the other account');
  });

  test("a batch line continuing another account's id fails with that 404, and nothing reaches the upstream", async () => {
    const created = await alice.responses.create({ model: 'gpt-4.1', input: 'a secret conversation' });
    const sent = upstream.requests.length;
    const line = {
      custom_id: 'steal',
      method: 'POST',
      url: '/v1/responses',
      body: { model: 'gpt-4.1', input: 'go on', previous_response_id: created.id },
    };
    const answer = await bobFailedLine(line);
    assert.equal(answer.response.status_code, 404);
    assert.equal(answer.response.body.error.param, 'previous_response_id');
    assert.equal(upstream.requests.length, sent, 'the upstream received nothing from the other account');
  });

  test('a relayed batch line naming a conversation fails with a 400, and nothing reaches the upstream (whose key could read its own)', async () => {
    const sent = upstream.requests.length;
    const line = {
      custom_id: 'theirs',
      method: 'POST',
      url: '/v1/responses',
      body: { model: 'gpt-4.1', input: 'go on', conversation: 'conv_of_the_channel_owner' },
    };
    const answer = await bobFailedLine(line);
    assert.equal(answer.response.status_code, 400);
    assert.equal(answer.response.body.error.param, 'conversation');
    assert.equal(upstream.requests.length, sent, 'the upstream received nothing');
  });
});

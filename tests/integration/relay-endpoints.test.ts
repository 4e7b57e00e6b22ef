// Integration tests: moderations, image variations, compaction, input items and cancel of a relayed response, and moderation batch lines relay to an OpenAI channel (a second gateway) instead of answering 501.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { decodePng, encodePng } from '../../electron/gateway/providers/simulate/png.ts';
import { jsonl, runUntil, upload } from '../helpers/batches.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries, settle, usageRows } from '../helpers/relay.ts';

describe('relay of the endpoints beside chat (OpenAI channel)', () => {
  const clock = manualClock();
  let up: TestGateway;
  let front: TestGateway;
  let openai: OpenAI;
  /** The calls the upstream gateway journaled under `prefix`, as method and path. */
  const upstreamCalls = async (prefix: string) => {
    await settle();
    return (await journalEntries(up, { prefix })).map((entry) => `${entry.method} ${entry.path}`);
  };

  before(async () => {
    // The upstream's clock stands still: its background responses stay queued until cancelled.
    up = await startGateway({ clock: manualClock() });
    front = await startGateway({
      clock,
      channels: memoryChannels([
        {
          name: 'up',
          kind: 'openai',
          api: 'responses',
          baseUrl: `${up.url}/v1`,
          key: up.token,
          models: ['my-gpt=sim-chat', 'my-mod=omni-moderation-latest', 'my-image=dall-e-2'],
        },
      ]),
    });
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
  });
  after(async () => {
    await front.stop();
    await up.stop();
  });

  test('a moderation is classified upstream under the channel model, its answer renamed back, and not billed', async () => {
    const before = usageRows(front).length;
    const moderation = await openai.moderations.create({ model: 'my-mod', input: ['I will kill you', 'hello'] });
    assert.equal(moderation.model, 'my-mod');
    assert.deepEqual(
      moderation.results.map((result) => result.flagged),
      [true, false],
      "the upstream simulator's verdicts",
    );
    const [entry] = await journalEntries(up, { prefix: '/v1/moderations' });
    assert.equal(entry.model, 'omni-moderation-latest');
    assert.equal(usageRows(front).length, before, 'moderations are free');
  });

  test('an image variation is streamed on as multipart and its images come back', async () => {
    const rgba = new Uint8Array(64 * 64 * 4).fill(90);
    const image = await toFile(encodePng({ width: 64, height: 64, rgba }), 'in.png', { type: 'image/png' });
    const varied = await openai.images.createVariation({ image, model: 'my-image', n: 2, size: '256x256', response_format: 'b64_json' });
    assert.equal(varied.data!.length, 2);
    const decoded = decodePng(Buffer.from(varied.data![0]!.b64_json!, 'base64'));
    assert.deepEqual([decoded.width, decoded.height], [256, 256]);
    assert.deepEqual(await upstreamCalls('/v1/images/variations'), ['POST /v1/images/variations']);
    assert.equal(usageRows(front).at(-1)!.endpoint, '/v1/images/variations');
  });

  test('a compaction is made upstream, billed by its usage', async () => {
    const compacted = await openai.responses.compact({ model: 'my-gpt', input: 'compact this long relayed conversation please' });
    assert.equal(compacted.object, 'response.compaction');
    assert.ok(compacted.output.some((item) => item.type === 'compaction'));
    assert.deepEqual(await upstreamCalls('/v1/responses/compact'), ['POST /v1/responses/compact']);
    const row = usageRows(front).at(-1)!;
    assert.deepEqual(
      { endpoint: row.endpoint, model: row.model, input_tokens: row.input_tokens },
      { endpoint: '/v1/responses/compact', model: 'my-gpt', input_tokens: compacted.usage.input_tokens },
    );
  });

  test('the input items of a relayed response are listed, and a relayed background response is cancelled, at the channel', async () => {
    const created = await openai.responses.create({ model: 'my-gpt', input: 'list my words', background: true });
    assert.equal(created.status, 'queued');
    const items = await openai.responses.inputItems.list(created.id, { order: 'asc', limit: 5 });
    assert.equal(items.data.length, 1);
    assert.equal(items.data[0]!.type, 'message');
    const cancelled = await openai.responses.cancel(created.id);
    assert.equal(cancelled.id, created.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await openai.responses.retrieve(created.id)).status, 'cancelled', 'cancelled at the upstream');
    await settle();
    const calls = await journalEntries(up, { prefix: `/v1/responses/${created.id}/` });
    assert.deepEqual(calls.map((entry) => `${entry.method} ${entry.path}`).sort(), [
      `GET /v1/responses/${created.id}/input_items`,
      `POST /v1/responses/${created.id}/cancel`,
    ]);
    const listed = calls.find((entry) => entry.path.endsWith('/input_items'));
    assert.deepEqual(listed.query, { order: 'asc', limit: '5' }, 'the paging asked is passed on');
  });

  test('moderation lines of a batch are relayed, and answer as the route does', async () => {
    const line = (id: string, input: string) => ({
      custom_id: id,
      method: 'POST',
      url: '/v1/moderations',
      body: { model: 'my-mod', input },
    });
    const input = await upload(openai, jsonl([line('bad', 'I will kill you'), line('good', 'hello')]));
    const run = await openai.batches.create({ input_file_id: input.id, endpoint: '/v1/moderations', completion_window: '24h' });
    const { batch } = await runUntil(openai, clock, run.id, 'completed');
    assert.deepEqual(batch.request_counts, { total: 2, completed: 2, failed: 0 });
    const answers = (await (await openai.files.content(batch.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { custom_id: string; response: { status_code: number; body: any } });
    const flagged = Object.fromEntries(answers.map((answer) => [answer.custom_id, answer.response.body.results[0].flagged]));
    assert.deepEqual(flagged, { bad: true, good: false });
    assert.equal((await journalEntries(up, { prefix: '/v1/moderations' })).length >= 2, true, 'the lines reached the upstream');
  });
});

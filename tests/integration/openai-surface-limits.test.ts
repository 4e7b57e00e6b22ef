// Integration tests of the bounds on what the OpenAI surface keeps per account: stored chat completions, files and batches (limits lowered through storageLimits).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { MAX_UPLOAD_FILE_BYTES } from '../../electron/gateway/services/media-limits.ts';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

describe('OpenAI surface storage limits', () => {
  const clock = manualClock();
  let gw: TestGateway;
  let client: OpenAI;
  before(async () => {
    gw = await startGateway({
      clock,
      storageLimits: {
        filesPerAccount: 3,
        filesAccountBytes: 4096,
        batchesPerAccount: 1,
        storedAccountBytes: 6000,
        storedResponseBytes: 5000,
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  });
  after(() => gw.stop());

  test('stored chat completions: one too large to store is a 400 naming store (nothing kept); over the account quota the oldest go', async () => {
    const tooLarge = await client.chat.completions
      .create({ model: 'sim-echo', messages: [{ role: 'user', content: 'x'.repeat(6000) }], store: true })
      .catch((e: unknown) => e);
    assert.ok(tooLarge instanceof OpenAI.BadRequestError);
    assert.equal(tooLarge.param, 'store');
    assert.deepEqual((await client.chat.completions.list()).data, []);
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      const created = await client.chat.completions.create({
        model: 'sim-echo',
        messages: [{ role: 'user', content: `${index} ${'y'.repeat(1500)}` }],
        store: true,
      });
      ids.push(created.id);
    }
    const kept = (await client.chat.completions.list({ limit: 100 })).data.map((completion) => completion.id);
    assert.ok(kept.length < 4 && kept.length > 0);
    assert.deepEqual(kept, ids.slice(ids.length - kept.length), 'the newest are kept');
  });

  test('files: an upload over the per-file size is a 413, over the count or bytes of the account a 400', async () => {
    const big = await client.files
      .create({ file: await toFile(Buffer.alloc(MAX_UPLOAD_FILE_BYTES + 1), 'big.bin'), purpose: 'user_data' })
      .catch((e: unknown) => e);
    assert.ok(big instanceof OpenAI.APIError);
    assert.equal(big.status, 413);
    const over = await client.files
      .create({ file: await toFile(Buffer.alloc(4097), 'a.bin'), purpose: 'user_data' })
      .catch((e: unknown) => e);
    assert.ok(over instanceof OpenAI.BadRequestError);
    for (let index = 0; index < 3; index++)
      await client.files.create({ file: await toFile(Buffer.from(`f${index}`), 'f.txt'), purpose: 'user_data' });
    const fourth = await client.files
      .create({ file: await toFile(Buffer.from('f3'), 'f.txt'), purpose: 'user_data' })
      .catch((e: unknown) => e);
    assert.ok(fourth instanceof OpenAI.BadRequestError);
    assert.equal(fourth.param, 'file');
    for (const file of (await client.files.list()).data) await client.files.delete(file.id);
  });

  test('batches: at the cap a new batch is refused while the others run, and replaces the oldest finished one', async () => {
    const line = { custom_id: 'a', method: 'POST', url: '/v1/moderations', body: { input: 'hello' } };
    const input = await client.files.create({ file: await toFile(Buffer.from(JSON.stringify(line) + '\n'), 'in.jsonl'), purpose: 'batch' });
    const first = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/moderations', completion_window: '24h' });
    const refused = await client.batches
      .create({ input_file_id: input.id, endpoint: '/v1/moderations', completion_window: '24h' })
      .catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    for (let step = 0; step < 400 && (await client.batches.retrieve(first.id)).status !== 'completed'; step++) {
      clock.advance(250);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/moderations', completion_window: '24h' });
    assert.notEqual(second.id, first.id);
    assert.ok((await client.batches.retrieve(first.id).catch((e: unknown) => e)) instanceof OpenAI.NotFoundError);
  });
});

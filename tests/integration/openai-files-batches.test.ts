// Integration tests of the Files and Batch APIs through the official openai SDK: uploads per account, and batches run on the clock through validating → in_progress → finalizing → completed, with output and error files, cancel, and a restart in the middle.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { jsonl, runUntil, upload } from '../helpers/batches.ts';
import { manualClock } from '../helpers/clock.ts';
import { startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';

const chatLine = (index: number) => ({
  custom_id: `request-${index}`,
  method: 'POST',
  url: '/v1/chat/completions',
  body: { model: 'sim-chat', messages: [{ role: 'user', content: `Question number ${index}` }], max_tokens: 20 },
});

describe('files and batches', () => {
  const clock = manualClock();
  const dataDir = tempDataDir();
  let gw: TestGateway;
  let client: OpenAI;
  before(async () => {
    gw = await startGateway({ clock, dataDir });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  });
  after(() => gw.stop());

  test('files: upload with only required parameters and with all, list, retrieve, content, delete; per account', async () => {
    const plain = await client.files.create({ file: await toFile(Buffer.from('hello file'), 'hello.txt'), purpose: 'user_data' });
    assert.match(plain.id, /^file-/);
    assert.deepEqual(
      [plain.object, plain.bytes, plain.filename, plain.purpose, plain.status],
      ['file', 10, 'hello.txt', 'user_data', 'processed'],
    );
    assert.equal(plain.created_at, Math.floor(clock.now() / 1000));
    const expiring = await client.files.create({
      file: await toFile(Buffer.from('{"a":1}\n'), 'data.jsonl'),
      purpose: 'batch',
      expires_after: { anchor: 'created_at', seconds: 3600 },
    });
    assert.equal(expiring.expires_at, expiring.created_at + 3600);
    assert.deepEqual(await client.files.retrieve(plain.id), plain);
    assert.equal(await (await client.files.content(plain.id)).text(), 'hello file');
    const listed: string[] = [];
    for await (const file of client.files.list()) listed.push(file.id);
    assert.deepEqual(listed.slice(0, 2), [expiring.id, plain.id], 'newest first');
    const onlyBatch = await client.files.list({ purpose: 'batch', limit: 1, order: 'asc' });
    assert.deepEqual(
      onlyBatch.data.map((file) => file.id),
      [expiring.id],
    );
    const afterFirst = await client.files.list({ order: 'asc', after: plain.id, limit: 10 });
    assert.deepEqual(
      afterFirst.data.map((file) => file.id),
      [expiring.id],
    );
    const other = gw.gateway.context.tokens.create({ account: 'files-stranger', name: 'x' });
    const stranger = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: other.secret, maxRetries: 0 });
    assert.ok((await stranger.files.retrieve(plain.id).catch((e: unknown) => e)) instanceof OpenAI.NotFoundError);
    assert.deepEqual((await stranger.files.list()).data, []);
    assert.deepEqual(await client.files.delete(plain.id), { id: plain.id, object: 'file', deleted: true });
    assert.ok((await client.files.content(plain.id).catch((e: unknown) => e)) instanceof OpenAI.NotFoundError);
    clock.advance(3600 * 1000);
    assert.ok((await client.files.retrieve(expiring.id).catch((e: unknown) => e)) instanceof OpenAI.NotFoundError, 'expired');
    const noPurpose = await client.files.create({ file: await toFile(Buffer.from('x'), 'x.txt') } as never).catch((e: unknown) => e);
    assert.ok(noPurpose instanceof OpenAI.BadRequestError);
    assert.equal(noPurpose.param, 'purpose');
  });

  test('a batch of 100 chat lines runs to completed with 100 results in its output file', async () => {
    const input = await upload(client, jsonl(Array.from({ length: 100 }, (_, index) => chatLine(index))));
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    assert.deepEqual(
      [created.object, created.status, created.endpoint, created.input_file_id],
      ['batch', 'validating', '/v1/chat/completions', input.id],
    );
    const { batch, seen } = await runUntil(client, clock, created.id, 'completed');
    assert.deepEqual(seen, ['validating', 'in_progress', 'finalizing', 'completed']);
    assert.deepEqual(batch.request_counts, { total: 100, completed: 100, failed: 0 });
    assert.equal(batch.error_file_id, null);
    for (const stamp of ['in_progress_at', 'finalizing_at', 'completed_at'] as const) assert.equal(typeof batch[stamp], 'number', stamp);
    assert.ok(batch.usage!.input_tokens > 0 && batch.usage!.output_tokens > 0);
    const output = (await (await client.files.content(batch.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(output.length, 100);
    assert.deepEqual(output.map((line) => line.custom_id).sort(), Array.from({ length: 100 }, (_, index) => `request-${index}`).sort());
    for (const line of output) {
      assert.equal(line.response.status_code, 200);
      assert.equal(line.response.body.object, 'chat.completion');
      assert.equal(line.error, null);
    }
    const outputFile = await client.files.retrieve(batch.output_file_id!);
    assert.equal(outputFile.purpose, 'batch_output');
  });

  test('every parameter and every endpoint: bad lines end in the error file, the batch still completes; list and metadata', async () => {
    const lines = [
      { custom_id: 'emb', method: 'POST', url: '/v1/embeddings', body: { model: 'sim-embed', input: 'hello' } },
      'this is not json',
      { custom_id: 'wrong-url', method: 'POST', url: '/v1/chat/completions', body: { model: 'sim-chat' } },
      { custom_id: 'bad-body', method: 'POST', url: '/v1/embeddings', body: { model: 'sim-embed' } },
    ];
    const input = await upload(client, jsonl(lines));
    const created = await client.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
      metadata: { job: 'nightly' },
      output_expires_after: { anchor: 'created_at', seconds: 7200 },
    });
    assert.deepEqual(created.metadata, { job: 'nightly' });
    const { batch } = await runUntil(client, clock, created.id, 'completed');
    assert.deepEqual(batch.request_counts, { total: 4, completed: 1, failed: 3 });
    const errors = (await (await client.files.content(batch.error_file_id!)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      errors.map((line) => [line.custom_id, line.error?.code ?? line.response?.status_code]),
      [
        [null, 'invalid_json_line'],
        ['wrong-url', 'mismatched_endpoint'],
        ['bad-body', 400],
      ],
    );
    const [ok] = (await (await client.files.content(batch.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(ok.response.body.object, 'list');
    const outputFile = await client.files.retrieve(batch.output_file_id!);
    assert.equal(outputFile.expires_at, outputFile.created_at + 7200);

    for (const [endpoint, body] of [
      ['/v1/responses', { model: 'sim-chat', input: 'hi' }],
      ['/v1/moderations', { input: 'I will kill you' }],
    ] as const) {
      const file = await upload(client, jsonl([{ custom_id: 'one', method: 'POST', url: endpoint, body }]));
      const run = await client.batches.create({ input_file_id: file.id, endpoint, completion_window: '24h' });
      const { batch: done } = await runUntil(client, clock, run.id, 'completed');
      const [line] = (await (await client.files.content(done.output_file_id!)).text())
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text));
      assert.equal(line.response.status_code, 200, endpoint);
    }
    const page = await client.batches.list({ limit: 2 });
    assert.equal(page.data.length, 2);
    assert.equal(page.hasNextPage(), true);
    const next = await client.batches.list({ limit: 2, after: page.data[1]!.id });
    assert.ok(next.data.every((item) => !page.data.some((seen) => seen.id === item.id)));
    const wrongPurpose = await upload(client, jsonl([chatLine(0)]), 'user_data');
    const refused = await client.batches
      .create({ input_file_id: wrongPurpose.id, endpoint: '/v1/chat/completions', completion_window: '24h' })
      .catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    assert.equal(refused.param, 'input_file_id');
  });

  test('cancel: a running batch ends cancelled with the results so far; an empty file fails the batch', async () => {
    const input = await upload(client, jsonl(Array.from({ length: 40 }, (_, index) => chatLine(index))));
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await runUntil(client, clock, created.id, 'in_progress');
    const cancelling = await client.batches.cancel(created.id);
    assert.equal(cancelling.status, 'cancelling');
    const { batch } = await runUntil(client, clock, created.id, 'cancelled');
    assert.equal(typeof batch.cancelled_at, 'number');
    assert.equal(batch.request_counts!.total, 40);
    assert.ok(batch.request_counts!.completed < 40);
    const empty = await upload(client, '\n');
    const failing = await client.batches.create({ input_file_id: empty.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const { batch: failed } = await runUntil(client, clock, failing.id, 'failed');
    assert.equal(failed.errors!.data![0]!.code, 'empty_file');
  });

  test('a batch stopped by a gateway restart resumes from its last recorded line and completes with every result once', async () => {
    const input = await upload(client, jsonl(Array.from({ length: 30 }, (_, index) => chatLine(index))));
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const { batch: running } = await runUntil(client, clock, created.id, 'in_progress');
    assert.ok(running.request_counts!.total === 30);
    const token = gw.token;
    await gw.stop({ keepData: true });
    gw = await startGateway({ clock, dataDir });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: token, maxRetries: 0 });
    const { batch } = await runUntil(client, clock, created.id, 'completed');
    assert.deepEqual(batch.request_counts, { total: 30, completed: 30, failed: 0 });
    const output = (await (await client.files.content(batch.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(output.map((line) => line.custom_id).sort(), Array.from({ length: 30 }, (_, index) => `request-${index}`).sort());
  });
});

// A batch's lines run as the token that created it: a token revoked (or expired, or deleted) while its batch waits runs no more lines, each answering the 403 its own calls get, nothing more charged; a token limited to some models runs no line of another.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { jsonl, runUntil, upload } from '../helpers/batches.ts';
import { manualClock } from '../helpers/clock.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { spentMicros } from '../helpers/quota.ts';

const LINES = 10;
const clock = manualClock();
let gw: TestGateway;

before(async () => {
  gw = await startGateway({ clock });
});
after(() => gw.stop());

/** A new token of `account`: its secret and id. */
async function tokenOf(account: string): Promise<{ secret: string; tokenId: string }> {
  const created = await request(`${gw.url}/admin/api/tokens`, 'POST', { token: gw.gateway.adminToken, body: { account } });
  return { secret: created.body.secret as string, tokenId: created.body.token.token_id as string };
}

test('a token revoked once its batch was created: every line answers 403 naming the revocation, and the token is charged nothing', async () => {
  const creator = await tokenOf('batch-revoked');
  // Another token of the account reads the batch (batches are the account's), since the revoked one can no longer.
  const reader = await tokenOf('batch-revoked');
  const asCreator = new OpenAI({ apiKey: creator.secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const lines = Array.from({ length: LINES }, (_, index) => ({
    custom_id: `line-${index}`,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model: 'sim-chat', messages: [{ role: 'user', content: `question ${index}` }] },
  }));
  const file = await upload(asCreator, jsonl(lines));
  const batch = await asCreator.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  const revoked = await request(`${gw.url}/admin/api/tokens/${creator.tokenId}/revoke`, 'POST', { token: gw.gateway.adminToken });
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));

  const asReader = new OpenAI({ apiKey: reader.secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const done = (await runUntil(asReader, clock, batch.id, 'completed')).batch;
  assert.deepEqual(done.request_counts, { total: LINES, completed: 0, failed: LINES });
  const errors = (await (await asReader.files.content(done.error_file_id!)).text()).trim().split('\n');
  assert.equal(errors.length, LINES);
  for (const text of errors) {
    const line = JSON.parse(text) as { response: { status_code: number; body: { error: { message: string } } } };
    assert.equal(line.response.status_code, 403);
    assert.match(line.response.body.error.message, /revoked/);
  }
  assert.equal(await spentMicros(gw, creator.tokenId), 0);
});

test("a token limited to some models runs a batch's lines of another model as its own calls would be: 403 naming its models", async () => {
  const created = await request(`${gw.url}/admin/api/tokens`, 'POST', {
    token: gw.gateway.adminToken,
    body: { account: 'batch-models', models: ['sim-echo'] },
  });
  const client = new OpenAI({ apiKey: created.body.secret as string, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const line = (model: string) => ({
    custom_id: model,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'user', content: 'hello' }] },
  });
  const file = await upload(client, jsonl([line('sim-echo'), line('sim-chat')]));
  const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  const done = (await runUntil(client, clock, batch.id, 'completed')).batch;
  assert.deepEqual(done.request_counts, { total: 2, completed: 1, failed: 1 });
  const refused = JSON.parse((await (await client.files.content(done.error_file_id!)).text()).trim()) as {
    custom_id: string;
    response: { status_code: number; body: { error: { message: string } } };
  };
  assert.equal(refused.custom_id, 'sim-chat');
  assert.equal(refused.response.status_code, 403);
  assert.match(refused.response.body.error.message, /may not use the model "sim-chat"; it is limited to: sim-echo/);
});

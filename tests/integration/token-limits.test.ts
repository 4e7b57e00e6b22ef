// Integration tests of token edits through the admin API: model limits refused in each caller's protocol (official SDKs), last use written at most once a minute, revoked tokens deleted, 3D tasks listed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { manualClock } from '../helpers/clock.ts';
import { openRaw } from '../helpers/realtime.ts';
import { request, startGateway, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';

describe('token edits', () => {
  const clock = manualClock(Date.now());
  let server: TestGateway;
  let admin: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;

  const tokenOf = async (name: string) => (await admin('GET', '/tokens')).body.find((token: { name: string }) => token.name === name);
  const created = async (name: string, body: Record<string, unknown> = {}) => {
    const answer = await admin('POST', '/tokens', { account: 'limits', name, ...body });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as { secret: string; token: { token_id: string } };
  };

  before(async () => {
    server = await startGateway({ clock, sim3dMs: 0 });
    admin = (method, path, body) =>
      request(`${server.url}/admin/api${path}`, method, { token: server.gateway.adminToken, ...(body !== undefined && { body }) });
  });
  after(() => server.stop());

  test('a token limited to some models is refused others with 403 in the OpenAI, Anthropic and Gemini shapes (and a realtime session with an error event)', async () => {
    const { secret, token } = await created('chat-only');
    const edited = await admin('PUT', `/tokens/${token.token_id}`, { models: ['sim-chat'] });
    assert.deepEqual(edited.body.models, ['sim-chat']);

    const openai = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    assert.ok((await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })).id);
    await assert.rejects(openai.embeddings.create({ model: 'sim-embed', input: 'x' }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.PermissionDeniedError);
      assert.match(error.message, /may not use the model "sim-embed"; it is limited to: sim-chat/);
      return true;
    });

    const anthropic = new Anthropic({ apiKey: secret, baseURL: server.url, maxRetries: 0 });
    await assert.rejects(
      anthropic.messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof Anthropic.PermissionDeniedError);
        assert.match(error.message, /limited to: sim-chat/);
        return true;
      },
    );

    const gemini = new GoogleGenAI({ apiKey: secret, httpOptions: { baseUrl: server.url } });
    await assert.rejects(
      gemini.models.generateContent({ model: 'gemini-x', contents: 'hi' }),
      /403[\s\S]*limited to: sim-chat|PERMISSION_DENIED/,
    );

    const realtime = await openRaw(`${server.url.replace(/^http/, 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    const refusal = await realtime.next('error');
    assert.equal(refusal.error.type, 'permission_error');
    assert.match(refusal.error.message, /may not use the model "sim-realtime"/);
    await realtime.closing;

    const lifted = await admin('PUT', `/tokens/${token.token_id}`, { models: null });
    assert.equal(lifted.body.models, null);
    assert.ok((await openai.embeddings.create({ model: 'sim-embed', input: 'x' })).data.length);
  });

  test('a bad edit changes nothing and names its field', async () => {
    const { token } = await created('bad-edits', { quota: 2 });
    for (const [body, param] of [
      [{ models: [] }, 'models'],
      [{ models: ['ok', ''] }, 'models'],
      [{ models: Array.from({ length: 51 }, (_, index) => `m${index}`) }, 'models'],
      [{ quota: -1 }, 'quota'],
      [{ expires_at: clock.now() - 1 }, 'expires_at'],
    ] as const) {
      const answer = await admin('PUT', `/tokens/${token.token_id}`, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.param, param);
    }
    const kept = await tokenOf('bad-edits');
    assert.equal(kept.quota, 2);
    assert.equal(kept.models, null);
    assert.equal((await admin('PUT', '/tokens/tok_missing', { quota: 1 })).status, 404);
  });

  test('quota and expiry edits take effect for the next call', async () => {
    const { secret, token } = await created('edited');
    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await admin('PUT', `/tokens/${token.token_id}`, { expires_at: clock.now() + 1000 });
    clock.advance(1000);
    await assert.rejects(client.models.list(), OpenAI.PermissionDeniedError);
    await admin('PUT', `/tokens/${token.token_id}`, { expires_at: null, quota: 0 });
    await assert.rejects(client.models.list(), /used up its quota/);
    await admin('PUT', `/tokens/${token.token_id}`, { quota: null });
    assert.ok(await client.models.list());
  });

  test('the last use is recorded at most once a minute', async () => {
    const { secret, token } = await created('used');
    assert.equal((await tokenOf('used')).last_used_at, null);
    const call = () => request(`${server.url}/v1/models`, 'GET', { token: secret });
    await call();
    const first = clock.now();
    assert.equal((await tokenOf('used')).last_used_at, first);
    clock.advance(30_000);
    await call();
    assert.equal((await tokenOf('used')).last_used_at, first, 'a call within the minute writes nothing');
    clock.advance(30_000);
    await call();
    assert.equal((await tokenOf('used')).last_used_at, clock.now());
    assert.ok(token.token_id);
  });

  test('only a revoked token can be deleted; it is gone from the list and opens nothing', async () => {
    const { secret, token } = await created('doomed');
    const early = await admin('POST', `/tokens/${token.token_id}/delete`);
    assert.equal(early.status, 400);
    assert.match(early.body.error.message, /revoke it first/);
    await admin('POST', `/tokens/${token.token_id}/revoke`);
    const deleted = await admin('POST', `/tokens/${token.token_id}/delete`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.name, 'doomed');
    assert.equal(await tokenOf('doomed'), undefined);
    assert.equal((await request(`${server.url}/v1/models`, 'GET', { token: secret })).status, 401);
    assert.equal((await admin('POST', `/tokens/${token.token_id}/delete`)).status, 404);
  });

  test('3D tasks of every account are paged newest first, filtered by account, and found by id', async () => {
    const { secret } = await created('maker');
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      ids.push((await request(`${server.url}/v1/3d/generations`, 'POST', { token: secret, body: { prompt } })).body.task_id);
    }
    await request(`${server.url}/v1/3d/generations`, 'POST', { token: server.token, body: { prompt: 'local one' } });
    const page = await admin('GET', '/tasks3d?account=limits&page_size=2');
    assert.equal(page.body.total, 3);
    assert.deepEqual(
      page.body.items.map((task: { prompt: string }) => task.prompt),
      ['three', 'two'],
    );
    assert.equal(page.body.items[0].account, 'limits');
    assert.equal(page.body.items[0].model, 'sim-3d');
    assert.equal((await admin('GET', '/tasks3d?account=limits&page_size=2&p=2')).body.items[0].task_id, ids[0]);
    assert.equal((await admin('GET', '/tasks3d')).body.total, 4, 'every account');
    const found = await admin('GET', `/tasks3d/${ids[1]}`);
    assert.equal(found.body.prompt, 'two');
    assert.equal((await admin('GET', '/tasks3d/task_nope')).status, 404);
    assert.equal((await admin('GET', '/tasks3d?account=nobody')).status, 404);
  });
});

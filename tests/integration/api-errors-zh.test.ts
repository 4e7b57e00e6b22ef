// The errors a real gateway answers API calls with (bad tokens, limits, quotas, unserved models, faults, strict fixtures, replay misses, unknown endpoints) each have the Chinese rendering the console's Logs page shows, so a changed gateway text cannot leave the console in English unnoticed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serverText } from '../../renderer/src/i18n/server-texts.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { request, startGateway, tempDirs, type JsonResponse, type TestGateway } from '../helpers/gateway.ts';

const dirs = tempDirs();

describe('the gateway’s API errors in a Chinese console', () => {
  let plain: TestGateway;
  let strict: TestGateway;
  let replaying: TestGateway;
  let admin: (method: string, route: string, body?: unknown) => Promise<JsonResponse>;
  /** The error message of an OpenAI-shaped call to `gateway` with `token` and `headers`. */
  const messageOf = async (
    gateway: TestGateway,
    token: string | undefined,
    body: unknown,
    headers: Record<string, string> = {},
    route = '/v1/chat/completions',
  ) => {
    const answer = await request(`${gateway.url}${route}`, 'POST', { ...(token !== undefined && { token }), body, headers });
    assert.ok(answer.status >= 400, `${route} answered ${answer.status}`);
    return (answer.body as { error: { message: string } }).error.message;
  };
  const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hello' }] });
  const newToken = async (name: string, fields: Record<string, unknown> = {}) => {
    const created = await admin('POST', '/tokens', { account: 'local', name, ...fields });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body as { secret: string; token: { token_id: string } };
  };

  before(async () => {
    // A channel serving one model, at an address nothing listens on: other models are not served, that one fails.
    const channels = memoryChannels([
      { name: 'nowhere', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', key: 'sk-none', models: ['gpt-far'] },
    ]);
    plain = await startGateway({ channels, unrouted: 'reject' });
    admin = (method, route, body) =>
      request(`${plain.url}/admin/api${route}`, method, { token: plain.gateway.adminToken, ...(body !== undefined && { body }) });
    const fixtures = path.join(dirs.fresh(), 'one.json');
    writeFileSync(fixtures, JSON.stringify({ fixtures: [{ match: { user: 'only this' }, response: { text: 'yes' } }] }));
    strict = await startGateway({ fixtures: [fixtures], strict: true });
    replaying = await startGateway({ replay: { dir: dirs.fresh(), miss: 'error', speed: 0 } });
  });
  after(async () => {
    await plain?.stop();
    await strict?.stop();
    await replaying?.stop();
    dirs.removeAll();
  });

  test('every error the gateway made is rendered in Chinese', async () => {
    const revoked = await newToken('revoked');
    await admin('POST', `/tokens/${revoked.token.token_id}/revoke`);
    const limited = await newToken('limited', { models: ['sim-chat'] });
    const spent = await newToken('spent', { quota: 0 });
    const messages = [
      await messageOf(plain, undefined, chat('sim-chat')),
      await messageOf(plain, 'sk-gh-not-a-token-of-this-gateway', chat('sim-chat')),
      await messageOf(plain, revoked.secret, chat('sim-chat')),
      await messageOf(plain, limited.secret, chat('sim-embed')),
      await messageOf(plain, spent.secret, chat('sim-chat')),
      await messageOf(plain, plain.token, chat('gpt-typo')),
      await messageOf(plain, plain.token, chat('gpt-far')),
      ...(await Promise.all(
        ['429', '500', '503', '529'].map((fault) => messageOf(plain, plain.token, chat('sim-chat'), { 'x-gatehouse-fault': fault })),
      )),
      await messageOf(plain, plain.token, {}, {}, '/v1/no-such-endpoint'),
      await messageOf(replaying, replaying.token, chat('sim-chat')),
      await messageOf(strict, strict.token, chat('sim-chat')),
    ];
    const untranslated = messages.filter((message) => serverText('zh', message) === message);
    assert.deepEqual(untranslated, [], 'gateway errors the Chinese console shows in English');
    // What a rendering keeps as written: the details the gateway names (models, the fixture file).
    assert.match(serverText('zh', messages[5]!), /^模型“gpt-typo”不存在；各渠道提供：gpt-far$/);
    assert.match(serverText('zh', messages.at(-1)!), /^没有固定应答匹配此 chat-completions 调用（严格模式）。最接近的是 "one\.json#0"：/);
  });
});

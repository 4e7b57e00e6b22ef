// Integration tests of malformed URLs: a bad percent-encoding or an overlong path segment is answered in the caller's protocol and never echoes the URL's query (a `?key=` credential) back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SHOWN_PATH_LIMIT } from '../../electron/gateway/server/shown-path.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

describe('malformed URLs', () => {
  let server: TestGateway;
  before(async () => {
    server = await startGateway();
  });
  after(() => server.stop());

  /** Sends the request and returns status and body text (what any client, or a page reading it, sees). */
  const send = async (method: string, path: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method !== 'GET' && { body: '{}' }),
    });
    return { status: response.status, text: await response.text() };
  };

  test("a bad percent-encoding in a path parameter is a 400 in the caller's protocol that echoes neither the URL nor its ?key=", async () => {
    const key = encodeURIComponent(server.token);
    const cases: Array<[string, string, (body: any) => void]> = [
      ['GET', `/v1/models/%E0%A4%A?key=${key}`, (body) => assert.equal(body.error.type, 'invalid_request_error')],
      ['GET', `/v1/3d/generations/%zz?key=${key}`, (body) => assert.equal(body.error.type, 'invalid_request_error')],
      ['POST', `/v1beta/models/%E0%A4%A:generateContent?key=${key}`, (body) => assert.equal(body.error.status, 'INVALID_ARGUMENT')],
      ['PUT', `/v1/portrait/groups/%zz?key=${key}`, (body) => assert.equal(body.success, false)],
    ];
    for (const [method, path, check] of cases) {
      const { status, text } = await send(method, path);
      assert.ok(status === 400 || (path.startsWith('/v1/portrait') && status === 200), `${path}: ${status} ${text}`);
      check(JSON.parse(text));
      assert.match(text, /malformed/);
      assert.equal(text.includes(server.token), false, `${path} echoes the key: ${text}`);
      assert.equal(text.includes('%E0') || text.includes('%zz') || text.includes('FST_'), false, `${path} echoes the URL: ${text}`);
    }
  });

  test("an overlong path segment is a 400 in the caller's protocol, not echoed", async () => {
    const { status, text } = await send('POST', `/v1beta/models/${'m'.repeat(500)}:generateContent?key=${server.token}`);
    assert.equal(status, 400);
    assert.equal(JSON.parse(text).error.status, 'INVALID_ARGUMENT');
    assert.equal(text.includes('mmmmmmmmmm') || text.includes(server.token), false, text);
  });

  test('an unknown path is a 404 that shows its path without the query, credential-like pieces masked, cut short', async () => {
    const { status, text } = await send('GET', `/v1/nowhere/api_key=${server.token}/${'x'.repeat(500)}?key=${server.token}`);
    assert.equal(status, 404);
    const message: string = JSON.parse(text).error.message;
    assert.match(message, /^Unknown endpoint: GET \/v1\/nowhere\/api_key=\*\*\*\//);
    assert.equal(message.includes(server.token), false, message);
    assert.ok(message.length < SHOWN_PATH_LIMIT + 30, message);
    const pasted = await send('GET', `/v1/${server.token}/models`);
    assert.equal(pasted.status, 404);
    assert.equal(pasted.text.includes(server.token), false, `a token pasted into the path is masked: ${pasted.text}`);
    const query = await send('POST', `/v1/chat/completions?key=%E0%A4%A`);
    assert.equal(query.status, 401, 'a bad encoding in the query alone is read as a (wrong) key');
    assert.equal(query.text.includes('%E0'), false);
  });
});

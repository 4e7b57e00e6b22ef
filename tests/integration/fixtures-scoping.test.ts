// Integration tests of fixture sequences, times and test ids: a 429, 429, 200 sequence drives the openai SDK's own retries, two tests at once see only their own fixtures and counters, a quota-refused call uses none of a fixture's times, and the admin API adds, lists and removes per test id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { quotaToken } from '../helpers/quota.ts';

const TEST_ID = 'x-gatehouse-test-id';

describe('sequences, times and test ids', () => {
  let gw: TestGateway;
  const admin = (method: string, url: string, body?: unknown) =>
    request(`${gw.url}/admin/api${url}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });
  const client = (testId?: string, maxRetries = 0) =>
    new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries, ...(testId && { defaultHeaders: { [TEST_ID]: testId } }) });
  const ask = async (openai: OpenAI, content: string) =>
    (await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] })).choices[0]!.message.content;

  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.stop());

  test("a 429, 429, 200 sequence is retried to success by the openai SDK's own retries", async () => {
    const rateLimited = { error: { status: 429, message: 'Slow down', headers: { 'retry-after-ms': '10', 'retry-after': '0' } } };
    const added = await admin('POST', '/fixtures', {
      test_id: 'retries',
      fixtures: [{ name: 'flaky', match: { user: 'retry me' }, sequence: [rateLimited, rateLimited, { text: 'third time lucky' }] }],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(await ask(client('retries', 2), 'please retry me'), 'third time lucky');
    const listed = (await admin('GET', '/fixtures?test_id=retries')).body.fixtures as { label: string; matched: number }[];
    assert.deepEqual(
      listed.map(({ label, matched }) => ({ label, matched })),
      [{ label: 'flaky', matched: 3 }],
    );
    // Used up: the next call is simulated, as an unmatched one.
    assert.notEqual(await ask(client('retries'), 'please retry me'), 'third time lucky');
  });

  test('a scripted error carries its status, type, message and Retry-After in the caller protocol', async () => {
    await admin('POST', '/fixtures', {
      test_id: 'errors',
      fixtures: [
        {
          match: { user: 'overload' },
          response: { error: { status: 529, type: 'overloaded_error', message: 'Busy', headers: { 'Retry-After': '7' } } },
        },
      ],
    });
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.token, maxRetries: 0, defaultHeaders: { [TEST_ID]: 'errors' } });
    const error = await anthropic.messages
      .create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'overload now' }] })
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    assert.ok(error instanceof Anthropic.APIError);
    assert.equal(error.status, 529);
    assert.deepEqual((error.error as { error: unknown }).error, { type: 'overloaded_error', message: 'Busy' });
    assert.equal(error.headers?.get('retry-after'), '7');
  });

  test('two tests at once with different test ids see only their own fixtures and counters', async () => {
    for (const id of ['alpha', 'beta']) {
      const added = await admin('POST', '/fixtures', {
        test_id: id,
        fixtures: [{ match: { user: 'count' }, sequence: [{ text: `${id} one` }, { text: `${id} two` }, { text: `${id} three` }] }],
      });
      assert.equal(added.status, 200);
    }
    const run = async (id: string) => {
      const openai = client(id);
      const answers: (string | null)[] = [];
      for (let i = 0; i < 3; i++) answers.push(await ask(openai, 'count'));
      return answers;
    };
    const [alpha, beta] = await Promise.all([run('alpha'), run('beta')]);
    assert.deepEqual(alpha, ['alpha one', 'alpha two', 'alpha three']);
    assert.deepEqual(beta, ['beta one', 'beta two', 'beta three']);
    // A request without a test id sees neither.
    assert.ok(!/alpha|beta/.test((await ask(client(), 'count')) ?? ''));

    // Removing one test id's fixtures leaves the other's; resetting its counters starts its sequence over.
    assert.deepEqual((await admin('DELETE', '/fixtures?test_id=alpha')).body, { removed: 1 });
    assert.ok(!/alpha/.test((await ask(client('alpha'), 'count')) ?? ''));
    assert.deepEqual((await admin('POST', '/fixtures/reset-counters', { test_id: 'beta' })).body, { reset: true });
    assert.equal(await ask(client('beta'), 'count'), 'beta one');
  });

  test('times: N answers N calls per test id, then the call is simulated', async () => {
    await admin('POST', '/fixtures', { match: { user: 'twice' }, response: { text: 'scripted' }, times: 2 });
    for (const id of ['t1', 't2']) {
      const openai = client(id);
      assert.deepEqual([await ask(openai, 'twice'), await ask(openai, 'twice')], ['scripted', 'scripted']);
      assert.notEqual(await ask(openai, 'twice'), 'scripted');
    }
  });

  test("a call the token's quota refuses uses none of a fixture's times: only an answer counts", async () => {
    await admin('POST', '/fixtures', {
      test_id: 'quota',
      fixtures: [{ name: 'once', match: { user: 'only once' }, response: { text: 'scripted once' }, times: 1 }],
    });
    const poor = await quotaToken(gw, 'poor', 0.000001);
    const refused = await new OpenAI({
      baseURL: `${gw.url}/v1`,
      apiKey: poor.secret,
      maxRetries: 0,
      defaultHeaders: { [TEST_ID]: 'quota' },
    }).chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'only once' }] })
      .then(
        () => assert.fail('expected the quota to refuse the call'),
        (error: unknown) => error,
      );
    assert.ok(refused instanceof OpenAI.APIError && /quota/.test(refused.message), String(refused));
    // The same test id with a token that can pay: the fixture still has its one answer.
    assert.equal(await ask(client('quota'), 'only once'), 'scripted once');
    const listed = (await admin('GET', '/fixtures?test_id=quota')).body.fixtures as { label: string; matched: number }[];
    assert.equal(listed.find(({ label }) => label === 'once')?.matched, 1);
    assert.notEqual(await ask(client('quota'), 'only once'), 'scripted once', 'used up by the one answer');
  });

  test("aimock's X-Test-Id header scopes a call too", async () => {
    await admin('POST', '/fixtures', {
      test_id: 'from-aimock',
      fixtures: [{ match: { userMessage: 'scoped' }, response: { content: 'seen by X-Test-Id' } }],
    });
    const aimockStyle = new OpenAI({
      baseURL: `${gw.url}/v1`,
      apiKey: gw.token,
      maxRetries: 0,
      defaultHeaders: { 'X-Test-Id': 'from-aimock' },
    });
    assert.equal(await ask(aimockStyle, 'scoped call'), 'seen by X-Test-Id');
    assert.notEqual(await ask(client(), 'scoped call'), 'seen by X-Test-Id');
  });

  test('a fixture added with problems is refused with each named', async () => {
    const refused = await admin('POST', '/fixtures', [
      { match: { turn: -1 }, response: { text: 'x' } },
      { match: {}, response: { colour: 'red' } },
      { match: { endpoint: 'images' }, response: { image: '/etc/hostname' } },
    ]);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /runtime#0 match\.turn: must be a whole number/);
    assert.match(refused.body.error.message, /runtime#1 response\.colour: is not a fixture field/);
    // A runtime fixture cannot make the gateway read a file of the machine.
    assert.match(refused.body.error.message, /runtime#2 response\.image: a fixture added through the admin API cannot name a file/);
  });
});

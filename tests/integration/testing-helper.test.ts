// The `gatehouse/testing` helper under node:test, imported by the package's own name as a user's suite does: fixtures, sequences, test ids, the journal, the clock, reset, stop.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { GatehouseAdminError, startGatehouse, type Gatehouse } from 'gatehouse/testing';

/** The scripted review's delay: an hour, so the asset is still under review when the test reads it, however busy the machine. */
const SCRIPTED_REVIEW_MS = 3_600_000;

describe('gatehouse/testing under node:test', () => {
  let gatehouse: Gatehouse;

  before(async () => {
    gatehouse = await startGatehouse({
      fixtures: [
        { name: 'greeting', match: { user: 'hello' }, response: { text: 'Hi from a fixture' } },
        {
          name: 'no face',
          match: { endpoint: 'portrait', url: { glob: 'https://cdn.example.com/banned/*' } },
          response: { review: { status: 'Failed', reason: 'no face found in the picture', delay_ms: SCRIPTED_REVIEW_MS } },
        },
      ],
    });
  });
  after(() => gatehouse.stop());

  test('a fixture given at start answers the openai SDK, and journal.last() shows what the code sent', async () => {
    const openai = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token });
    const { data: answer, response } = await openai.chat.completions
      .create({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hello' },
        ],
        temperature: 0.2,
      })
      .withResponse();
    assert.equal(answer.choices[0]!.message.content, 'Hi from a fixture');

    const call = await gatehouse.journal.last();
    assert.equal(call?.fixture, 'greeting');
    assert.equal(call?.source, 'fixture');
    assert.equal(call?.request_id, response.headers.get('x-request-id'));
    assert.deepEqual(
      (await gatehouse.journal.list({ requestId: call!.request_id! })).map((listed) => listed.id),
      [call!.id],
      'the answer’s x-request-id finds the call',
    );
    assert.equal(call?.path, '/v1/chat/completions');
    assert.deepEqual(call?.requestBody, {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
      temperature: 0.2,
    });
    assert.equal((call?.responseBody as OpenAI.ChatCompletion).choices[0]!.message.content, 'Hi from a fixture');
  });

  test('a test id scopes a sequence (429, 429, then an answer) that the SDK retries through; another test id sees none of it', async () => {
    const retrying = gatehouse.forTest('retry-test');
    const slowDown = { error: { status: 429, message: 'Slow down', headers: { 'retry-after-ms': '10' } } };
    await retrying.fixtures.add({ match: { user: 'retry me' }, sequence: [slowDown, slowDown, { text: 'third time lucky' }] });

    const openai = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, defaultHeaders: retrying.headers, maxRetries: 2 });
    const answer = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'retry me' }] });
    assert.equal(answer.choices[0]!.message.content, 'third time lucky');
    assert.deepEqual(
      (await retrying.journal.list()).map((call) => call.status),
      [429, 429, 200],
      'the journal of this test id holds its three attempts, in order',
    );

    const other = gatehouse.forTest('another-test');
    const otherClient = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, defaultHeaders: other.headers, maxRetries: 0 });
    const simulated = await otherClient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'retry me' }] });
    assert.notEqual(simulated.choices[0]!.message.content, 'third time lucky');
    assert.equal((await other.journal.last())?.fixture ?? null, null, 'another test id never sees the fixture');
    assert.deepEqual(await other.fixtures.list().then((list) => list.map((fixture) => fixture.label)), ['greeting', 'no face']);

    await retrying.reset();
    assert.deepEqual(await retrying.journal.list(), [], 'reset cleared this test id’s journal');
    assert.equal((await other.journal.list()).length, 1, 'and left the other test id’s');
    assert.deepEqual(
      (await retrying.fixtures.list()).map((fixture) => fixture.origin),
      ['file', 'file'],
      'reset removed the test’s own fixture and kept the suite’s',
    );
  });

  test('clock.advance brings a simulated and a scripted portrait asset to their verdicts with no waiting', async () => {
    const portrait = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${gatehouse.url}/v1/portrait${path}`, {
        method,
        headers: { authorization: `Bearer ${gatehouse.token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      type Data = { status: string; group_id: string; asset_id: string; failure_reason: string | null };
      return ((await response.json()) as { data: Data }).data;
    };
    const group = await portrait('POST', '/groups', { name: 'clock' });
    const asset = await portrait('POST', '/assets', {
      group_id: group.group_id,
      url: 'https://cdn.example.com/anna.png',
      asset_type: 'Image',
    });
    assert.equal((await portrait('GET', `/assets/${asset.asset_id}`)).status, 'Processing');
    const banned = await portrait('POST', '/assets', {
      group_id: group.group_id,
      url: 'https://cdn.example.com/banned/bob.png',
      asset_type: 'Image',
    });
    assert.equal((await portrait('GET', `/assets/${banned.asset_id}`)).status, 'Processing');

    const before = await gatehouse.clock.get();
    // Past the simulated review (10 s by default) and the scripted one.
    const moved = await gatehouse.clock.advance(SCRIPTED_REVIEW_MS);
    assert.equal(moved.offset_ms, before.offset_ms + SCRIPTED_REVIEW_MS);
    assert.equal((await portrait('GET', `/assets/${asset.asset_id}`)).status, 'Active');
    const verdict = await portrait('GET', `/assets/${banned.asset_id}`);
    assert.deepEqual([verdict.status, verdict.failure_reason], ['Failed', 'no face found in the picture'], 'the suite’s portrait fixture');
  });

  test('forTest refuses a test id no header can carry, before any call', () => {
    assert.throws(() => gatehouse.forTest('café au lait'), /forTest: a test id is 1 to 256 printable ASCII characters/);
    assert.throws(() => gatehouse.forTest(' padded '), /no space at either end/);
    assert.equal(gatehouse.forTest('x'.repeat(256)).headers['x-gatehouse-test-id'].length, 256);
  });

  test('a fixture the gateway cannot read is refused naming the field', async () => {
    await assert.rejects(
      gatehouse.fixtures.add({ match: { user: 'x' }, response: { colour: 'blue' } }),
      (error: unknown) =>
        error instanceof GatehouseAdminError && error.status === 400 && /response\.colour: is not a fixture field/.test(error.message),
    );
  });
});

test('a token and an admin token given to startGatehouse are the ones that work', async () => {
  await using gatehouse = await startGatehouse({ token: 'sk-helper-0123456789abcdef', adminToken: 'helper-admin-0123456789' });
  assert.equal(gatehouse.token, 'sk-helper-0123456789abcdef');
  assert.equal(gatehouse.adminToken, 'helper-admin-0123456789');
  const openai = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: 'sk-helper-0123456789abcdef', maxRetries: 0 });
  assert.equal((await openai.models.list()).object, 'list');
  assert.deepEqual(await gatehouse.fixtures.list(), []);
});

test('stop() stops the gateway and removes its data dir', async () => {
  const gatehouse = await startGatehouse();
  assert.ok(existsSync(gatehouse.dataDir));
  await gatehouse.stop();
  assert.equal(existsSync(gatehouse.dataDir), false);
  await assert.rejects(fetch(`${gatehouse.url}/health`));
});

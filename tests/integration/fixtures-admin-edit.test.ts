// Integration test of editing one runtime fixture through the admin API: replaced in place (same id, order and source, counters
// started over), removed alone, problems named by field, and file fixtures or unknown ids answered 404.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

interface Listing {
  id: number;
  label: string;
  source: string;
  origin: string;
  testId: string | null;
  matched: number;
}

describe('one runtime fixture is edited or removed through the admin API', () => {
  const dirs = tempDirs();
  let gw: TestGateway;
  let openai: OpenAI;
  const admin = (method: string, route: string, body?: unknown) =>
    request(`${gw.url}/admin/api/fixtures${route}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });
  const listed = async () => ((await admin('GET', '')).body as { fixtures: Listing[] }).fixtures;
  const ask = async (content: string) =>
    (await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] })).choices[0]!.message.content;

  before(async () => {
    const dir = dirs.fresh();
    writeFileSync(
      path.join(dir, 'suite.json'),
      JSON.stringify([{ name: 'from-file', match: { user: 'file' }, response: { text: 'file answer' } }]),
    );
    gw = await startGateway({ fixtures: [path.join(dir, 'suite.json')] });
    openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const added = await admin('POST', '', [
      { name: 'first', match: { user: 'one' }, response: { text: 'one answer' } },
      { name: 'second', match: { user: 'two' }, response: { text: 'two answer' } },
    ]);
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });
  after(() => gw.stop());

  test('PUT replaces the fixture in place: same id, order and source, new match and answer, its count started over', async () => {
    assert.equal(await ask('one please'), 'one answer');
    const [first, second] = await listed();
    assert.equal(first!.label, 'first');
    assert.equal(first!.matched, 1);
    const put = await admin('PUT', `/${first!.id}`, {
      name: 'first-edited',
      match: { user: 'uno' },
      response: { text: 'uno answer' },
      test_id: 't1',
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const after = await listed();
    assert.deepEqual(
      after.map((item) => [item.id, item.label, item.source, item.testId, item.matched]),
      [
        [first!.id, 'first-edited', first!.source, 't1', 0],
        [second!.id, 'second', second!.source, null, 0],
        [after[2]!.id, 'from-file', 'suite.json#0', null, 0],
      ],
    );
    const scoped = new OpenAI({
      baseURL: `${gw.url}/v1`,
      apiKey: gw.token,
      maxRetries: 0,
      defaultHeaders: { 'x-gatehouse-test-id': 't1' },
    });
    const answer = await scoped.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'uno' }] });
    assert.equal(answer.choices[0]!.message.content, 'uno answer');
    assert.notEqual(await ask('one please'), 'one answer', 'the old match is gone');
  });

  test('a bad replacement is refused naming the field, and changes nothing', async () => {
    const [first] = await listed();
    const put = await admin('PUT', `/${first!.id}`, { match: { user: 'uno' }, response: { colour: 'blue' } });
    assert.equal(put.status, 400);
    assert.match(JSON.stringify(put.body), /runtime#0 response\.colour/);
    assert.equal((await listed())[0]!.label, 'first-edited');
    const two = await admin('PUT', `/${first!.id}`, [{ response: { text: 'a' } }, { response: { text: 'b' } }]);
    assert.equal(two.status, 400);
    assert.match(JSON.stringify(two.body), /must be one fixture; got 2/);
  });

  test('DELETE of one id removes that fixture only; file fixtures and unknown ids are 404', async () => {
    const [first, second, file] = await listed();
    assert.equal((await admin('DELETE', `/${file!.id}`)).status, 404);
    assert.equal((await admin('PUT', `/${file!.id}`, { response: { text: 'x' } })).status, 404);
    assert.equal((await admin('DELETE', '/99999')).status, 404);
    assert.equal((await admin('DELETE', '/nope')).status, 404);
    const removed = await admin('DELETE', `/${first!.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(
      (await listed()).map((item) => item.label),
      [second!.label, 'from-file'],
    );
    assert.equal((await admin('DELETE', `/${first!.id}`)).status, 404);
    assert.equal(await ask('two'), 'two answer');
    assert.equal(await ask('file'), 'file answer');
  });
});

// Integration tests of the stored-field length limits: over-long names, descriptions, URLs and prompts get the caller's protocol error and store nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { FIELD_LIMITS } from '../../shared/field-limits.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient, type PortraitClient } from '../helpers/portrait.ts';

const over = (max: number) => 'x'.repeat(max + 1);

describe('stored field lengths', () => {
  let gw: TestGateway;
  let api: PortraitClient;
  let groupId: string;
  let assetId: string;
  const count = (table: string) => (gw.gateway.context.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const admin = (method: string, path: string, body?: unknown) =>
    request(`${gw.url}/admin/api${path}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });

  before(async () => {
    gw = await startGateway();
    api = portraitClient(gw.url, gw.token);
    groupId = dataOf(await api.createGroup({ name: 'Faces' })).group_id;
    assetId = dataOf(
      await api.createAsset({ group_id: groupId, url: 'https://cdn.example.com/a.png', asset_type: 'Image', name: 'Anna' }),
    ).asset_id;
  });
  after(() => gw.stop());

  test('a name of exactly the limit is kept whole', async () => {
    const group = dataOf(
      await api.createGroup({ name: 'n'.repeat(FIELD_LIMITS.groupName), description: 'd'.repeat(FIELD_LIMITS.groupDescription) }),
    );
    assert.equal(group.name.length, FIELD_LIMITS.groupName);
    assert.equal(group.description.length, FIELD_LIMITS.groupDescription);
  });

  test('over-long portrait fields get the failure envelope naming the field and store nothing', async () => {
    const groups = count('portrait_groups');
    const assets = count('portrait_assets');
    const cases: [Promise<any>, string][] = [
      [api.createGroup({ name: 'x'.repeat(10 * 1024 * 1024) }), `name must be at most ${FIELD_LIMITS.groupName} characters`],
      [
        api.createGroup({ name: 'ok', description: over(FIELD_LIMITS.groupDescription) }),
        `description must be at most ${FIELD_LIMITS.groupDescription} characters`,
      ],
      [
        api.createGroup({ name: 'ok', group_type: over(FIELD_LIMITS.groupType) }),
        `group_type must be at most ${FIELD_LIMITS.groupType} characters`,
      ],
      [api.updateGroup(groupId, { name: over(FIELD_LIMITS.groupName) }), `name must be at most ${FIELD_LIMITS.groupName} characters`],
      [
        api.updateGroup(groupId, { description: over(FIELD_LIMITS.groupDescription) }),
        `description must be at most ${FIELD_LIMITS.groupDescription} characters`,
      ],
      [
        api.createAsset({ group_id: groupId, url: `https://cdn.example.com/${over(FIELD_LIMITS.url)}`, asset_type: 'Image' }),
        `url must be at most ${FIELD_LIMITS.url} characters`,
      ],
      [
        api.createAsset({
          group_id: groupId,
          url: 'https://cdn.example.com/b.png',
          asset_type: 'Image',
          name: over(FIELD_LIMITS.assetName),
        }),
        `name must be at most ${FIELD_LIMITS.assetName} characters`,
      ],
      [api.updateAsset(assetId, { name: over(FIELD_LIMITS.assetName) }), `name must be at most ${FIELD_LIMITS.assetName} characters`],
    ];
    for (const [response, message] of cases) assert.equal(failureOf(await response), message);
    assert.equal(count('portrait_groups'), groups);
    assert.equal(count('portrait_assets'), assets);
    const listed = dataOf(await api.listGroups('?page_size=100')).items as { group_id: string; name: string; description: string }[];
    const group = listed.find((g) => g.group_id === groupId);
    assert.deepEqual([group?.name, group?.description], ['Faces', ''], 'the refused updates changed nothing');
    assert.equal(dataOf(await api.getAsset(assetId)).name, 'Anna');
  });

  test('the admin API refuses over-long group names and token names with a 400 and stores nothing', async () => {
    const groups = count('portrait_groups');
    const tokens = count('tokens');
    const accounts = count('accounts');
    const group = await admin('POST', '/accounts/local/groups', { name: over(FIELD_LIMITS.groupName) });
    assert.equal(group.status, 400);
    assert.equal(group.body.error.message, `name must be at most ${FIELD_LIMITS.groupName} characters`);
    const token = await admin('POST', '/tokens', { account: over(FIELD_LIMITS.accountName) });
    assert.equal(token.status, 400);
    assert.equal(token.body.error.message, `account must be at most ${FIELD_LIMITS.accountName} characters`);
    assert.deepEqual([count('portrait_groups'), count('tokens'), count('accounts')], [groups, tokens, accounts]);
  });

  test('TokensService refuses an over-long account or token name whoever calls it (the CLI too)', () => {
    const tokens = count('tokens');
    assert.throws(
      () => gw.gateway.context.tokens.create({ account: over(FIELD_LIMITS.accountName) }),
      /account must be at most 64 characters/,
    );
    assert.throws(
      () => gw.gateway.context.tokens.create({ account: 'ci', name: over(FIELD_LIMITS.tokenName) }),
      /name must be at most 64 characters/,
    );
    assert.equal(count('tokens'), tokens);
  });

  test('the usage ledger keeps at most the model-name limit of a model name the caller sent', async () => {
    const client = new OpenAI({ apiKey: gw.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: `sim-chat-${'m'.repeat(100_000)}`, messages: [{ role: 'user', content: 'hi' }] });
    const row = gw.gateway.context.db
      .prepare("SELECT length(model) AS n FROM usage_records WHERE endpoint = '/v1/chat/completions' ORDER BY id DESC")
      .get() as { n: number };
    assert.equal(row.n, FIELD_LIMITS.model);
  });

  test('an over-long 3D prompt, model or image_url is a 400 in the OpenAI envelope and creates no task', async () => {
    const tasks = count('tasks3d');
    const cases: [Record<string, unknown>, string][] = [
      [{ prompt: over(FIELD_LIMITS.prompt3d) }, 'prompt'],
      [{ prompt: 'a chair', model: over(FIELD_LIMITS.model) }, 'model'],
      [{ image_url: `https://cdn.example.com/${over(FIELD_LIMITS.url)}` }, 'image_url'],
    ];
    const client = new OpenAI({ apiKey: gw.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    for (const [body, param] of cases) {
      const error = await client.post('/3d/generations', { body }).then(
        () => assert.fail('expected a 400'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.status, 400);
      assert.equal((error.error as { param: string }).param, param);
      assert.match(error.message, /string too long/);
    }
    assert.equal(count('tasks3d'), tasks);
  });
});

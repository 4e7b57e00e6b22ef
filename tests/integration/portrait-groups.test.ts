// Integration tests of the portrait group endpoints (create, list, update) against a real server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGateway, request, type TestGateway } from '../helpers/gateway.ts';
import { dataOf, failureOf, portraitClient, type PortraitClient } from '../helpers/portrait.ts';

const RFC3339_WITH_FRACTION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+(Z|[+-]\d{2}:\d{2})$/;

describe('portrait groups', () => {
  let gw: TestGateway;
  let api: PortraitClient;
  before(async () => {
    gw = await startGateway();
    api = portraitClient(gw.url, gw.token);
  });
  after(() => gw.stop());

  test('create returns the record in the success envelope with defaults and RFC 3339 times', async () => {
    const response = await api.createGroup({ name: 'Team faces', description: 'spokespeople' });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['data', 'message', 'success']);
    const group = dataOf(response);
    assert.match(group.group_id, /^grp_[A-Za-z0-9]{20}$/);
    assert.equal(group.name, 'Team faces');
    assert.equal(group.description, 'spokespeople');
    assert.equal(group.group_type, 'AIGC');
    assert.match(group.created_at, RFC3339_WITH_FRACTION);
    assert.equal(group.updated_at, group.created_at);
    assert.equal('id' in group, false, 'the internal numeric id never leaves the gateway');
  });

  test('group_type is kept when given; description is optional', async () => {
    const group = dataOf(await api.createGroup({ name: 'Voices', group_type: 'CUSTOM' }));
    assert.equal(group.group_type, 'CUSTOM');
    assert.equal(group.description, '');
  });

  for (const [label, body] of [
    ['missing name', { description: 'x' }],
    ['empty name', { name: '' }],
    ['whitespace-only name', { name: '  \t ' }],
    ['null name', { name: null }],
  ] as const) {
    test(`${label} is refused with "Group name must not be empty" and stores nothing`, async () => {
      const before = dataOf(await api.listGroups()).total;
      assert.equal(failureOf(await api.createGroup(body)), 'Group name must not be empty');
      assert.equal(dataOf(await api.listGroups()).total, before);
    });
  }

  test('wrong JSON types and malformed JSON get a clear message', async () => {
    assert.equal(failureOf(await api.createGroup({ name: 42 })), 'name must be a string');
    assert.equal(failureOf(await api.createGroup({ name: 'ok', description: ['x'] })), 'description must be a string');
    assert.equal(failureOf(await api.createGroup([{ name: 'x' }])), 'Request body must be a JSON object');
    const malformed = await request(`${gw.url}/v1/portrait/groups`, 'POST', { token: gw.token, body: '{"name": "x"' });
    assert.match(failureOf(malformed), /^Request body is not valid JSON/);
    const noBody = await request(`${gw.url}/v1/portrait/groups`, 'POST', { token: gw.token });
    assert.equal(failureOf(noBody), 'Request body must be a JSON object');
  });

  test('a body without a JSON content type is still read as JSON', async () => {
    const response = await request(`${gw.url}/v1/portrait/groups`, 'POST', {
      token: gw.token,
      body: JSON.stringify({ name: 'plain text body' }),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(dataOf(response).name, 'plain text body');
  });

  test('update changes only the given fields and moves updated_at', async () => {
    const group = dataOf(await api.createGroup({ name: 'Before', description: 'keep me' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const renamed = dataOf(await api.updateGroup(group.group_id, { name: 'After' }));
    assert.equal(renamed.name, 'After');
    assert.equal(renamed.description, 'keep me');
    assert.equal(renamed.group_type, group.group_type);
    assert.equal(renamed.created_at, group.created_at);
    assert.ok(Date.parse(renamed.updated_at) > Date.parse(group.updated_at));
    const described = dataOf(await api.updateGroup(group.group_id, { description: 'new text' }));
    assert.equal(described.name, 'After');
    assert.equal(described.description, 'new text');
  });

  test('update refuses a blank name, an empty change and an unknown or internal id', async () => {
    const group = dataOf(await api.createGroup({ name: 'Stable' }));
    assert.equal(failureOf(await api.updateGroup(group.group_id, { name: ' ' })), 'Group name must not be empty');
    assert.equal(failureOf(await api.updateGroup(group.group_id, {})), 'Nothing to update: give name and/or description');
    assert.equal(failureOf(await api.updateGroup('grp_doesnotexist', { name: 'x' })), 'Group does not exist');
    assert.equal(failureOf(await api.updateGroup('1', { name: 'x' })), 'Group does not exist');
    const list = dataOf(await api.listGroups('?page_size=100')).items as { group_id: string; name: string }[];
    assert.equal(list.find((g) => g.group_id === group.group_id)?.name, 'Stable');
  });

  test('the list is paged in creation order', async () => {
    const page = dataOf(await api.listGroups());
    assert.equal(page.page, 1);
    assert.equal(page.page_size, 20);
    assert.equal(page.total, page.items.length);
    const created = page.items.map((g: { created_at: string }) => Date.parse(g.created_at));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => a - b),
    );
  });
});

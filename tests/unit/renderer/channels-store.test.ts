// Unit tests of the channels store: add and edit replace the listed channel, a refusal names the field, a test result is kept and the health reloaded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChannelSummary } from '../../../shared/channels.ts';
import { ApiError } from '../../../renderer/src/api/http.ts';
import { createChannelsStore } from '../../../renderer/src/stores/channels.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';
import { heldAnswers, turnsUntil } from '../../helpers/held-answer.ts';

const channel = (id: string, extra: Partial<ChannelSummary> = {}): ChannelSummary => ({
  id,
  name: id,
  kind: 'openai',
  base_url: 'https://api.example.com/v1',
  models: '*',
  priority: 0,
  weight: 1,
  timeout_ms: 60_000,
  idle_timeout_ms: 300_000,
  deadline_ms: 1_800_000,
  api: 'chat',
  compat: null,
  compat_profile: 'compatible',
  headers: {},
  enabled: true,
  key_hint: 'sk-…wxyz',
  created_at: 1,
  updated_at: 1,
  health: { consecutive_failures: 0, cooldown_until: null, last_error: null, last_error_at: null, last_latency_ms: null, last_ok_at: null },
  ...extra,
});

test('save adds or replaces a channel; a refusal comes back with its field', async () => {
  const admin = fakeAdmin({
    listChannels: () => [channel('ch_1')],
    createChannel: (input) => {
      if (input.body.base_url?.startsWith('http:')) throw new ApiError('base_url must use https', 400, 'base_url');
      return channel('ch_2', { name: input.body.name ?? '' });
    },
    updateChannel: (input) => channel(input.params.channelId, { enabled: input.body.enabled ?? true, priority: input.body.priority ?? 0 }),
  });
  const store = createChannelsStore(admin.call);
  await store.getState().load();
  const refused = await store.getState().save(null, { name: 'x', kind: 'openai', base_url: 'http://x' });
  assert.deepEqual(refused, { ok: false, message: 'base_url must use https', param: 'base_url' });
  assert.equal((await store.getState().save(null, { name: 'two', kind: 'openai', base_url: 'https://x' })).ok, true);
  await store.getState().save('ch_1', { priority: 4 });
  await store.getState().setEnabled('ch_2', false);
  assert.deepEqual(
    store.getState().channels?.map((item) => [item.id, item.priority, item.enabled]),
    [
      ['ch_1', 4, true],
      ['ch_2', 0, false],
    ],
  );
  assert.ok(!JSON.stringify(admin.calls.filter((call) => call.name === 'updateChannel')).includes('"key"'), 'no key sent unasked');
});

test('a test result is kept per channel and the health is reloaded; remove drops the row', async () => {
  let loads = 0;
  const admin = fakeAdmin({
    listChannels: () => {
      loads += 1;
      return [channel('ch_1', loads > 1 ? { health: { ...channel('x').health, last_ok_at: 5, last_latency_ms: 12 } } : {})];
    },
    testChannel: () => ({ ok: true, latency_ms: 12, message: 'ok' }),
    removeChannel: (input) => channel(input.params.channelId),
  });
  const store = createChannelsStore(admin.call);
  await store.getState().load();
  await store.getState().test('ch_1');
  assert.deepEqual(store.getState().tests['ch_1'], { ok: true, latency_ms: 12, message: 'ok' });
  assert.equal(store.getState().channels?.[0]?.health.last_latency_ms, 12);
  await store.getState().remove('ch_1');
  assert.deepEqual(store.getState().channels, []);
  assert.equal(store.getState().busy.length, 0);
});

test('a list read before a change landed never undoes it: a later list stays, a store change makes it asked again', async () => {
  const health = { ...channel('x').health, last_ok_at: 5 };
  // Each listChannels call takes the next answer, resolved by the test when it wants it to land.
  const { answers, next } = heldAnswers<ChannelSummary[]>();
  const admin = fakeAdmin({
    listChannels: next,
    testChannel: () => ({ ok: true, latency_ms: 12, message: 'ok' }),
    updateChannel: (input) => channel(input.params.channelId, { health, enabled: false }),
  });
  const store = createChannelsStore(admin.call);
  const opened = store.getState().load();
  const tested = store.getState().test('ch_1');
  assert.ok(await turnsUntil(() => answers.length === 2), 'the test reloaded the list');
  answers[1]!.resolve([channel('ch_1', { health })]);
  await tested;
  answers[0]!.resolve([channel('ch_1')]);
  await opened;
  assert.equal(store.getState().channels?.[0]?.health.last_ok_at, 5, 'the list the test reloaded stays');

  const reload = store.getState().load();
  await store.getState().setEnabled('ch_1', false);
  answers[2]!.resolve([channel('ch_1', { health })]);
  assert.ok(await turnsUntil(() => answers.length === 4), 'the outdated list was asked again');
  answers[3]!.resolve([channel('ch_1', { health, enabled: false })]);
  await reload;
  assert.equal(store.getState().channels?.[0]?.enabled, false, 'the list read before the change was asked again');
  assert.equal(answers.length, 4);
});

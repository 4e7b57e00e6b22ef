// Unit tests of the platform and volcengine channel kinds: their options and key form, the reviewer choice, and that chat relay never sees them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import { openFileStore } from '../../../electron/gateway/secrets/file-store.ts';
import { ChannelsService } from '../../../electron/gateway/services/channels.ts';
import { ChannelsRepo } from '../../../electron/gateway/storage/channels-repo.ts';
import { manualClock } from '../../helpers/clock.ts';
import { tempDatabase } from '../../helpers/database.ts';
import { tempDirs } from '../../helpers/gateway.ts';

const dirs = tempDirs();
test.after(() => dirs.removeAll());

function service() {
  return new ChannelsService({ repo: new ChannelsRepo(tempDatabase()), secrets: openFileStore(dirs.fresh()), clock: manualClock() });
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    return error;
  }
  throw new Error('expected a refusal');
}

test('a volcengine channel defaults its base URL, region and project, and takes its key only as AK:SK', async () => {
  const channels = service();
  const added = await channels.add({ name: 'ark', kind: 'volcengine', key: 'AKLTid:secret' });
  assert.deepEqual(
    [added.base_url, added.region, added.project, added.key_hint !== null],
    ['https://open.volcengineapi.com', 'cn-beijing', 'default', true],
  );
  const changed = await channels.update('ark', { region: 'cn-shanghai', project: 'faces' });
  assert.deepEqual([changed.region, changed.project], ['cn-shanghai', 'faces']);
  const bad = await refusal(channels.update('ark', { key: 'only-one-part' }));
  assert.deepEqual([bad.message.includes('AK:SK'), bad.param], [true, 'key']);
  const stored = await channels.serviceChannel(added.id);
  assert.deepEqual([stored?.key, stored?.region, stored?.project], ['AKLTid:secret', 'cn-shanghai', 'faces']);
});

test('region and project belong to volcengine channels only', async () => {
  const channels = service();
  const error = await refusal(channels.add({ name: 'oa', kind: 'openai', base_url: 'https://api.example.com/v1', region: 'cn-beijing' }));
  assert.equal(error.param, 'region');
  const platform = await channels.add({ name: 'pf', kind: 'platform', base_url: 'https://platform.example.com' });
  assert.deepEqual([platform.region, platform.project], [null, null]);
});

test('the reviewer is the enabled service channel of highest priority; chat relay never sees service channels', async () => {
  const channels = service();
  await channels.add({ name: 'chat', kind: 'openai', base_url: 'https://api.example.com/v1', priority: 100 });
  await channels.add({ name: 'low', kind: 'platform', base_url: 'https://a.example.com', priority: 1, models: 'remote-3d' });
  await channels.add({ name: 'high', kind: 'volcengine', key: 'AK:SK', priority: 5 });
  const reviewerOf = () =>
    channels
      .list()
      .filter((channel) => channel.reviewer)
      .map((channel) => channel.name);
  assert.deepEqual(reviewerOf(), ['high']);
  await channels.update('high', { enabled: false });
  assert.deepEqual(reviewerOf(), ['low']);
  assert.deepEqual(
    channels.enabledServiceChannels({ kind: 'platform', model: 'remote-3d' }).map((channel) => channel.name),
    ['low'],
  );
  assert.deepEqual(channels.enabledServiceChannels({ kind: 'platform', model: 'other' }), []);
  assert.deepEqual(channels.kindsServing('remote-3d'), ['openai'], 'the openai channel serves * ; the platform channel adds no chat kind');
  assert.deepEqual(
    channels.listedModels().map((entry) => entry.model),
    [],
    'a platform 3D model is not listed as a chat model',
  );
});

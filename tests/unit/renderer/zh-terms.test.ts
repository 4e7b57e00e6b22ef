// The Chinese console names a channel one way (渠道, as its navigation does) in its own texts and in the gateway's translated ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverText } from '../../../renderer/src/i18n/server-texts.ts';
import { zh } from '../../../renderer/src/i18n/zh.ts';

test('a channel is 渠道 everywhere in Chinese, never 通道', () => {
  assert.equal(zh.navChannels, '渠道');
  const other = Object.entries(zh).filter(([, text]) => text.includes('通道'));
  assert.deepEqual(other, [], 'console texts that say 通道');
  assert.equal(serverText('zh', 'Channel ch_x does not exist'), '渠道 ch_x 不存在');
});

// The Chinese console names each thing one way: a channel 渠道 (as its navigation does), an API token 令牌 and a model's text token "token", in its own texts and in the gateway's translated ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverText } from '../../../renderer/src/i18n/server-texts.ts';
import { en } from '../../../renderer/src/i18n/en.ts';
import { zh } from '../../../renderer/src/i18n/zh.ts';

test('a channel is 渠道 everywhere in Chinese, never 通道', () => {
  assert.equal(zh.navChannels, '渠道');
  const other = Object.entries(zh).filter(([, text]) => text.includes('通道'));
  assert.deepEqual(other, [], 'console texts that say 通道');
  assert.equal(serverText('zh', 'Channel ch_x does not exist'), '渠道 ch_x 不存在');
});

test('a model token is "token" in Chinese, never 令牌 (the word of an API token)', () => {
  // English texts that count a model's tokens: per million, per second, per day, in and out, the usage page's counts.
  const countsModelTokens = (key: string, text: string) =>
    /\b(1M|million|input|output|out) tokens\b|\btokens (per|\/s)\b|tokens\/s/.test(text) || key.startsWith('usageTokens');
  const modelTokenKeys = Object.entries(en).filter(([key, text]) => countsModelTokens(key, text));
  assert.ok(modelTokenKeys.length >= 8, `found ${modelTokenKeys.length} texts that count model tokens`);
  const wrong = modelTokenKeys.map(([key]) => [key, zh[key as keyof typeof zh]]).filter(([, text]) => text?.includes('令牌'));
  assert.deepEqual(wrong, [], 'Chinese texts that call a model token 令牌');
  assert.equal(zh.navTokens, '令牌');
});

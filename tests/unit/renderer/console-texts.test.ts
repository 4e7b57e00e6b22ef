// Unit tests of the console's small pure helpers: server texts in Chinese, shortcut keys, money, times and counts per language, and the setups' token handling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMoney } from '../../../shared/money.ts';
import { isTyping, shortcutOf } from '../../../renderer/src/components/shortcuts.ts';
import { setupText, SETUP_KINDS } from '../../../renderer/src/features/connect/setups.ts';
import { en } from '../../../renderer/src/i18n/en.ts';
import { formatClock, formatCount, formatRelative, formatTime } from '../../../renderer/src/i18n/index.ts';
import { serverText } from '../../../renderer/src/i18n/server-texts.ts';
import { UNREACHABLE } from '../../../renderer/src/api/http.ts';
import { zh } from '../../../renderer/src/i18n/zh.ts';

test('known server texts are translated into Chinese with their details; unknown ones and English stay as written', () => {
  assert.equal(serverText('zh', 'format mismatch: a .mp4 file is Video, not Image'), '格式不符：.mp4 文件是 Video，不是 Image');
  assert.equal(serverText('zh', 'a plain-text file readable only by you (/d/secrets.json)'), '只有你能读取的纯文本文件（/d/secrets.json）');
  assert.equal(serverText('zh', 'something new from the server'), 'something new from the server');
  assert.equal(serverText('zh', 'Token tok_123 does not exist'), '令牌 tok_123 不存在');
  assert.equal(serverText('zh', 'The gateway answered HTTP 502: bad gateway'), '网关返回了 HTTP 502：bad gateway');
  assert.equal(serverText('zh', 'The gateway answered HTTP 500'), '网关返回了 HTTP 500');
  assert.equal(serverText('zh', UNREACHABLE), '无法连接网关。请确认 `gatehouse serve`（或桌面应用）仍在运行，然后重试。');
  assert.equal(serverText('en', 'review rejected: the content did not pass review'), 'review rejected: the content did not pass review');
});

test('g then a key opens a page; other keys do their one thing; typing in a field is left alone', () => {
  assert.deepEqual(shortcutOf('g', false), { kind: 'prefix' });
  assert.deepEqual(shortcutOf('m', true), { kind: 'go', page: 'models' });
  assert.deepEqual(shortcutOf('m', false), { kind: 'none' });
  assert.deepEqual(shortcutOf('x', true), { kind: 'none' });
  assert.deepEqual(shortcutOf('?', false), { kind: 'help' });
  const input = { closest: (selector: string) => (selector.includes('input') ? {} : null) };
  assert.equal(isTyping({ target: input, ctrlKey: false, metaKey: false, altKey: false }), true);
  assert.equal(isTyping({ target: null, ctrlKey: true, metaKey: false, altKey: false }), true);
});

test('money has its unit after the amount, with 4 decimals, up to 6 when a smaller part was charged', () => {
  assert.equal(formatMoney(1.5), '1.5000 USD');
  assert.equal(formatMoney(0), '0.0000 USD');
  assert.equal(formatMoney(0.00018), '0.00018 USD');
  assert.equal(formatMoney(0.000061), '0.000061 USD');
  assert.equal(formatMoney(0.0000004), '0.0000 USD');
  assert.equal(formatMoney(1_000_000), '1000000.0000 USD');
});

test('every setup names the base URL; without a secret none carries a token, with one each carries it', () => {
  const baseUrl = 'http://127.0.0.1:8790';
  const models = { openai: 'm-openai', anthropic: 'm-anthropic', gemini: 'm-gemini' };
  for (const kind of SETUP_KINDS) {
    const bare = setupText(kind, { baseUrl, secret: null, models });
    assert.ok(bare.includes(baseUrl), kind);
    assert.ok(!bare.includes('sk-gh-'), kind);
    assert.ok(setupText(kind, { baseUrl, secret: 'sk-gh-secret', models }).includes('sk-gh-secret'), kind);
  }
});

test('the coding tools’ setups name the model given for their family (suggested from the model list), none a built-in name', () => {
  const models = { openai: 'm-openai', anthropic: 'm-anthropic', gemini: 'm-gemini' };
  const text = (kind: 'claude-code' | 'codex' | 'gemini-cli') =>
    setupText(kind, { baseUrl: 'http://127.0.0.1:8790', secret: null, models });
  assert.match(text('claude-code'), /ANTHROPIC_MODEL=m-anthropic/);
  assert.match(text('codex'), /model = "m-openai"/);
  assert.match(text('gemini-cli'), /gemini -m m-gemini/);
});

test('the Gemini CLI setup says what headless use needs (the auth type in settings.json, a trusted folder), in English and Chinese', () => {
  for (const texts of [en, zh]) {
    const help = texts['setupHelp_gemini-cli'];
    assert.match(help, /~\/\.gemini\/settings\.json/);
    assert.match(help, /"selectedType":"gemini-api-key"/);
    assert.match(help, /trustedFolders\.json/);
    assert.match(help, /gemini -p/);
  }
});

test('times, clocks, counts and relative times are written in the language asked for, whichever was asked first', () => {
  const at = Date.UTC(2026, 10, 28, 13, 5, 9, 42);
  const reference = (locale: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options).format(at);
  // Each language's formatters are made once and kept: asking in one language must never answer in the other.
  for (const order of [
    ['zh', 'en'],
    ['en', 'zh'],
  ] as const) {
    for (const language of order) {
      const locale = language === 'zh' ? 'zh-CN' : 'en-GB';
      assert.equal(formatTime(language, at), reference(locale, { dateStyle: 'medium', timeStyle: 'medium' }));
      assert.equal(
        formatClock(language, at),
        reference(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false }),
      );
    }
  }
  assert.notEqual(formatTime('en', at), formatTime('zh', at));
  assert.match(formatClock('en', at), /:09\.042$/);
  assert.equal(formatTime('en', null), '—');
  assert.equal(formatRelative('en', at + 120_000, at), 'in 2 minutes');
  assert.equal(formatRelative('zh', at + 120_000, at), '2分钟后');
  assert.equal(formatRelative('en', at - 30_000, at), '30 seconds ago');
  assert.equal(formatRelative('en', at + 3 * 3_600_000, at), 'in 3 hours');
  assert.equal(formatCount('en', 1234567), '1,234,567');
});

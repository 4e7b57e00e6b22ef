// End-to-end test in Chromium: in Chinese the console shows the gateway's own texts (where secrets are kept, the Models page's capabilities, the errors it answered calls with on the Logs page) and the custom channel preset in Chinese too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, screenshot } from '../helpers/browser.ts';
import { openConsole, setConsolePrefs, type ConsoleSession } from '../helpers/console-session.ts';
import { tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Chinese server texts e2e test: ${skip}`);

/** The simulator's capabilities as the gateway writes them in /admin/api/models. */
const ENGLISH_CAPABILITIES = ['answers with the last user message', 'image generation and edits', 'text to speech', 'speech to text'];

describe('the gateway’s texts in a Chinese console', { skip }, () => {
  const dirs = tempDirs();
  let session: ConsoleSession;
  let page: Page;
  const show = async (name: string, heading: string) => {
    await page.evaluate(`window.location.hash = '#/${name}'`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  before(async () => {
    session = await openConsole(dirs.fresh(), { width: 1280, height: 900 }, { secrets: 'file' });
    page = session.page;
    await setConsolePrefs(page, { language: 'zh', theme: 'dark' });
  });

  after(async () => {
    await session?.close();
    dirs.removeAll();
  });

  test('the Channels page’s key field says in Chinese where the key is kept', async () => {
    await show('channels', '渠道');
    const hint = page.getByRole('form', { name: '添加渠道' }).locator('.field', { hasText: '密钥' }).locator('.field-hint');
    const text = await hint.innerText();
    await screenshot(page, 'server-texts-zh-channels');
    assert.match(text, /只有你能读取的纯文本文件/);
    assert.doesNotMatch(text, /plain-text|readable only/);
  });

  test('the custom server preset is named in Chinese and still fills the form', async () => {
    await show('channels', '渠道');
    const form = page.getByRole('form', { name: '添加渠道' });
    await form.getByLabel('服务商预设').selectOption({ label: '自定义 OpenAI 兼容服务器' });
    assert.equal(await form.getByLabel('基础 URL').inputValue(), 'https://YOUR-SERVER/v1');
    assert.equal(await form.getByLabel('服务商预设').locator('option', { hasText: 'Custom OpenAI-compatible server' }).count(), 0);
  });

  test('a new token’s note says in Chinese where its copy is kept', async () => {
    await show('tokens', '令牌');
    const form = page.getByRole('form', { name: '创建令牌' });
    await form.getByLabel('名称').fill('zh-note');
    await form.getByRole('button', { name: '创建令牌' }).click();
    const note = page.getByText(/^已保存一份副本/);
    const text = await note.innerText();
    assert.match(text, /只有你能读取的纯文本文件/);
    assert.doesNotMatch(text, /plain-text|readable only/);
  });

  test('the Models page shows each capability in Chinese, and the filter finds a model by its Chinese capability', async () => {
    await show('models', '模型');
    const table = page.locator('main table').first();
    await table.getByText('sim-tts', { exact: true }).waitFor();
    await screenshot(page, 'server-texts-zh-models');
    const text = await table.innerText();
    for (const english of ENGLISH_CAPABILITIES) assert.ok(!text.includes(english), `"${english}" is left in English`);
    assert.match(await table.locator('tr', { hasText: 'sim-tts' }).innerText(), /文本转语音/);
    await page.getByPlaceholder('按名称或能力筛选').fill('文本转语音');
    await table.locator('tbody tr', { hasText: 'sim-chat' }).waitFor({ state: 'detached' });
    assert.deepEqual(await table.locator('tbody tr code').allInnerTexts(), ['sim-tts']);
  });

  test('on the Logs page a call the gateway refused shows its error in Chinese, with the text the caller got beside it when opened', async () => {
    const token = /sk-gh-[A-Za-z0-9]{40}/.exec(session.server.stdout.join('\n'))?.[0];
    assert.ok(token, 'the first API token is printed at start');
    const refused = await fetch(`${session.server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gatehouse-fault': '429' },
      body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'refuse me' }] }),
    });
    assert.equal(refused.status, 429);
    const english = ((await refused.json()) as { error: { message: string } }).error.message;
    await show('logs', '日志');
    const row = page.locator('tbody tr', { hasText: '已达到速率限制' }).first();
    await row.waitFor();
    assert.ok(!(await row.innerText()).includes(english), 'the row shows no English error');
    await row.click();
    const error = page.getByTestId('log-error');
    await error.waitFor();
    await screenshot(page, 'server-texts-zh-logs');
    const shown = await error.innerText();
    assert.match(shown, /已达到速率限制（由 x-gatehouse-fault: 429 模拟）/);
    assert.ok(shown.includes(`调用方收到的原文：${english}`), shown);
  });
});

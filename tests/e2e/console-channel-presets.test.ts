// End-to-end test in Chromium of a preset channel: pick Ollama, point it at a local stand-in, Fetch models, Test (the answer shown), Test all fills the response-time column.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, privateServeArgs, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import type { HostileUpstream } from '../helpers/hostile-upstream.ts';
import { ollamaStandIn, STAND_IN_ANSWER } from '../helpers/ollama-stand-in.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the channel presets e2e test: ${skip}`);

describe('channel presets on the Channels page', { skip }, () => {
  const dirs = tempDirs();
  let server: ServeProcess;
  let ollama: HostileUpstream;
  let upstream: TestGateway;
  let browser: Browser;
  let page: Page;

  before(async () => {
    await ensureBuilt();
    server = await serveCli(privateServeArgs(dirs.fresh(), { secrets: 'file' }));
    ollama = await ollamaStandIn();
    upstream = await startGateway();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByRole('navigation').getByRole('link', { name: 'Channels', exact: true }).click();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await ollama?.close();
    await upstream?.stop();
    dirs.removeAll();
  });

  test('the Ollama preset fills the form; Fetch models lists the local models; Test shows the answer', async () => {
    const form = page.getByRole('form', { name: 'Add a channel' });
    await form.getByLabel('Provider preset').selectOption({ label: 'Ollama' });
    assert.equal(await form.getByLabel('Base URL').inputValue(), 'http://127.0.0.1:11434/v1');
    assert.equal(await form.getByLabel('Name').inputValue(), 'ollama');
    assert.equal(await form.getByLabel('Compatibility').inputValue(), 'compatible');
    await form.getByText('output limit sent as max_tokens').waitFor();
    // The stand-in listens on a port of its own instead of 11434.
    await form.getByLabel('Base URL').fill(`${ollama.url}/v1`);
    await form.getByRole('button', { name: 'Add a channel' }).click();

    const row = page.locator('tr', { hasText: 'ollama' });
    await row.getByText('*', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Fetch models' }).click();
    await row.getByText('llama3.2:3b, qwen3:8b').waitFor();
    await row.getByRole('button', { name: 'Test' }).click();
    await row.getByText(/Test ok · \d+ ms/).waitFor();
    await row.getByText(`llama3.2:3b said: ${STAND_IN_ANSWER}`).waitFor();
  });

  test('Test all tests every channel and shows each one’s response time; a bad key fails clearly', async () => {
    const form = page.getByRole('form', { name: 'Add a channel' });
    // A preset whose address holds a part to replace is not added as it is.
    await form.getByLabel('Provider preset').selectOption({ label: 'Azure OpenAI' });
    await form.getByRole('button', { name: 'Add a channel' }).click();
    await form.getByRole('alert').filter({ hasText: 'replace the YOUR-… part of the base URL' }).waitFor();
    assert.equal(await page.locator('tr', { hasText: 'azure-openai' }).count(), 0);

    await form.getByLabel('Provider preset').selectOption({ label: 'OpenAI' });
    await form.getByLabel('Name').fill('wrong-key');
    await form.getByLabel('Base URL').fill(`${upstream.url}/v1`);
    await form.getByLabel('Models').fill('sim-chat');
    await form.getByLabel('Key').fill('sk-not-the-right-key-0000');
    await form.getByRole('button', { name: 'Add a channel' }).click();
    await page.locator('tr', { hasText: 'wrong-key' }).waitFor();

    await page.getByRole('columnheader', { name: 'Response time' }).waitFor();
    await page.getByRole('button', { name: 'Test all' }).click();
    const ollamaRow = page.locator('tr', { hasText: 'ollama' });
    const wrongRow = page.locator('tr', { hasText: 'wrong-key' });
    await ollamaRow
      .locator('[data-response-time]')
      .getByText(/^\d+ ms$/)
      .waitFor();
    await wrongRow.locator('[data-response-time]').getByText('failed').waitFor();
    await wrongRow.getByText(/Test failed: HTTP 401: /).waitFor();
    assert.ok(!(await page.content()).includes('sk-not-the-right-key-0000'), 'the key is nowhere on the page');
    await screenshot(page, 'channels-test-all');
  });
});

// End-to-end test of the Channels page in Debian's Chromium: add a keyed channel, see it listed with its hint only, test it against a second gateway, disable and remove it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, privateServeArgs, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the channels e2e test: ${skip}`);

describe('channels page', { skip }, () => {
  const dirs = tempDirs();
  let server: ServeProcess;
  let upstream: TestGateway;
  let browser: Browser;
  let page: Page;

  before(async () => {
    await ensureBuilt();
    server = await serveCli(privateServeArgs(dirs.fresh(), { secrets: 'file' }));
    // A second Gatehouse in simulate mode is the upstream; its API token is the channel's key.
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
    await upstream?.stop();
    dirs.removeAll();
  });

  test('a channel added on the page is listed with its key hint, and its Test button reaches the upstream', async () => {
    await page.getByText('No channels yet').waitFor();
    const form = page.getByRole('form', { name: 'Add a channel' });
    await form.getByLabel('Name').fill('upstream');
    await form.getByLabel('Base URL').fill('http://example.com/v1');
    await form.getByLabel('Key').fill(upstream.token);
    await form.getByRole('button', { name: 'Add a channel' }).click();
    await form.getByText('base_url must use https').waitFor();

    await form.getByLabel('Base URL').fill(`${upstream.url}/v1`);
    await form.getByLabel('Models').fill('gpt-local=sim-chat');
    await form.getByRole('button', { name: 'Add a channel' }).click();
    const row = page.locator('tr', { hasText: 'upstream' });
    const hint = `${upstream.token.slice(0, 3)}…${upstream.token.slice(-4)}`;
    await row.getByText(hint).waitFor();
    await row.getByText('not used yet').waitFor();
    assert.equal(await form.getByLabel('Key').inputValue(), '', 'the key field is emptied once saved');
    assert.equal(await form.getByLabel('Name').inputValue(), '', 'the add form starts over');
    assert.ok(!(await page.content()).includes(upstream.token), 'the key is nowhere on the page');

    await row.getByRole('button', { name: 'Test' }).click();
    await row.getByText(/Test ok · \d+ ms/).waitFor();
    await row.getByText(/^ok · \d+ ms$/).waitFor();
    await screenshot(page, 'channels-list');
  });

  test('edit keeps the key unless a new one is typed; disable and remove (with confirm)', async () => {
    const row = page.locator('tr', { hasText: 'upstream' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit upstream' });
    await form.getByLabel('Priority').fill('5');
    await form.getByRole('button', { name: 'Save' }).click();
    await row.getByText('5 / 1').waitFor();
    await row.getByText(`${upstream.token.slice(0, 3)}…${upstream.token.slice(-4)}`).waitFor();

    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByText('openai · disabled').waitFor();
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Remove for good' }).click();
    await page.getByText('No channels yet').waitFor();
  });
});

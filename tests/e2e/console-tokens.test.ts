// End-to-end test of the Tokens page in Chromium: edit quota, expiry and model limit (enforced for an SDK), last use shown, revoked tokens deleted.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { assertFitsWidth, browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Tokens e2e tests: ${skip}`);

describe('console Tokens page', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;

  const openTokens = async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Tokens', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
  };
  const rowOf = (name: string) => page.getByRole('table', { name: 'Tokens' }).locator('tbody tr', { hasText: name }).first();

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a token limited to one model in the console is refused another by the SDK, and its last use shows', async () => {
    await openTokens();
    const form = page.getByRole('form', { name: 'Create token' });
    await form.getByLabel('Name', { exact: true }).fill('limited');
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('created-secret').locator('code.secret').textContent())!;
    const row = rowOf('limited');
    assert.equal((await row.getByTestId('token-last-used').textContent())!.trim(), 'not yet');

    await row.getByRole('button', { name: 'Edit token limited' }).click();
    const edit = page.getByRole('form', { name: 'Edit token limited' });
    await edit.getByLabel('Quota (optional)').fill('3');
    await edit.getByLabel('Models (optional)').fill('sim-chat, sim-embed');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    assert.match((await row.getByTestId('token-models').textContent())!, /only sim-chat, sim-embed/);
    assert.match((await row.textContent())!, /of 3/, 'the quota shows');

    const client = new OpenAI({ apiKey: secret, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const allowed = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(allowed.choices[0]?.message.content);
    await assert.rejects(
      client.chat.completions.create({ model: 'sim-chat-other', messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.PermissionDeniedError, String(error));
        assert.equal(error.status, 403);
        assert.match(error.message, /may not use the model "sim-chat-other".*limited to: sim-chat, sim-embed/);
        return true;
      },
    );

    await openTokens();
    await page.getByRole('navigation').getByRole('link', { name: 'Overview', exact: true }).click();
    await openTokens();
    // The page shows the list it had at once and reads it again: the call's use shows once the new list is in (a busy
    // machine reads it later than the first look; the wait is bounded by Playwright's timeout).
    await rowOf('limited').getByTestId('token-last-used').filter({ hasNotText: 'not yet' }).waitFor();
    assert.notEqual((await rowOf('limited').getByTestId('token-last-used').textContent())!.trim(), 'not yet', 'the call is its last use');
    await screenshot(page, 'tokens-edit');
    await rowOf('limited').getByRole('button', { name: 'Edit token limited' }).click();
    for (const width of [1280, 800]) await assertFitsWidth(page, width, 'the Tokens page with an open edit form');
    await screenshot(page, 'tokens-edit-800');
    await page.getByRole('form', { name: 'Edit token limited' }).getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('an expiry can be set and cleared again', async () => {
    await openTokens();
    const row = rowOf('limited');
    await row.getByRole('button', { name: 'Edit token limited' }).click();
    const edit = page.getByRole('form', { name: 'Edit token limited' });
    await edit.getByLabel('Expires (optional)').fill('2099-05-01T12:00');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    assert.match((await row.textContent())!, /2099/);
    await row.getByRole('button', { name: 'Edit token limited' }).click();
    await edit.getByLabel('Expires (optional)').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    assert.doesNotMatch((await row.textContent())!, /2099/);
  });

  test('a revoked token can be deleted after a confirmation, and stays gone', async () => {
    await openTokens();
    const form = page.getByRole('form', { name: 'Create token' });
    await form.getByLabel('Name', { exact: true }).fill('short-lived');
    await form.getByRole('button', { name: 'Create token' }).click();
    const row = rowOf('short-lived');
    await row.waitFor();
    assert.equal(await row.getByRole('button', { name: 'Delete' }).count(), 0, 'an active token cannot be deleted');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke for good' }).click();
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.getByRole('button', { name: 'Delete for good' }).click();
    await row.waitFor({ state: 'detached' });
    await page.reload();
    await openTokens();
    await rowOf('limited').waitFor();
    assert.equal(await page.getByRole('table', { name: 'Tokens' }).locator('tbody tr', { hasText: 'short-lived' }).count(), 0);
  });
});

// End-to-end test in Debian's Chromium of a console whose gateway found no keychain (a private D-Bus session with no keyring): sessions share one console token, the Channels page names the real cause, and its one click keeps keyed channels.
import assert from 'node:assert/strict';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, tempDataDir } from '../helpers/gateway.ts';
import { noKeyringSkipReason, startNoKeyringBus, type NoKeyringBus } from '../helpers/no-keyring.ts';
import { deadPort } from '../helpers/ports.ts';

const skip = browserSkipReason() ?? noKeyringSkipReason();
if (skip) console.log(`# skipping the no-keychain console e2e test: ${skip}`);

describe('console on a machine without a keychain', { skip }, () => {
  const dataDir = tempDataDir();
  let bus: NoKeyringBus;
  let server: ServeProcess;
  let browser: Browser;
  let address: string;

  before(async () => {
    await ensureBuilt();
    bus = await startNoKeyringBus();
    // A fixed port, so the restart the one click asks for answers on the same address. A config folder of the test's own:
    // the default settings file would be the one every test of the run shares, and the one click saves `secrets: file` in it.
    server = await serveCli(['--port', String(await deadPort()), '--tls-port', 'off'], {
      ...bus.env,
      GATEHOUSE_DATA_DIR: dataDir,
      XDG_CONFIG_HOME: path.join(dataDir, 'config'),
    });
    address = await consoleUrlOf(server);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    bus?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('five browser sessions that use a token in the Playground leave one console token', async () => {
    for (let session = 0; session < 5; session += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(address);
      await page.getByRole('navigation').getByRole('link', { name: 'Playground', exact: true }).click();
      await page.getByRole('button', { name: 'Use a token of this account' }).click();
      await page.getByRole('button', { name: 'Use a token of this account' }).waitFor({ state: 'detached' });
      await context.close();
    }
    const adminToken = new URL(address).searchParams.get('admin_token')!;
    const tokens = (await request(`${server.url}/admin/api/tokens?account=local`, 'GET', { token: adminToken })).body as { name: string }[];
    assert.equal(tokens.filter((token) => token.name === 'console').length, 1);
  });

  test('the Channels page names the real cause, and its one click keeps secrets in the file so a keyed channel is added', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(address);
    await page.getByRole('navigation').getByRole('link', { name: 'Channels', exact: true }).click();
    const notice = page.locator('.no-secrets');
    await notice.getByText('This gateway keeps no secrets, because no keychain was found (no Secret Service on this machine)').waitFor();
    assert.ok(!(await page.content()).includes('--secrets none'), 'the page does not blame a flag the user never passed');
    const form = page.getByRole('form', { name: 'Add a channel' });
    const keyHint = await form.getByText(/no key can be kept/).textContent();
    assert.doesNotMatch(keyHint ?? '', /Kept in the secret store/, 'the key hint does not contradict itself');
    await screenshot(page, 'channels-no-keychain');

    await notice.getByRole('button', { name: 'Keep secrets in a locked file in the data dir' }).click();
    await notice.waitFor({ state: 'detached', timeout: 60_000 });
    await form.getByText(/Kept in the secret store \(a plain-text file readable only by you/).waitFor();
    await form.getByLabel('Name').fill('openai');
    await form.getByLabel('Base URL').fill('https://api.openai.com/v1');
    await form.getByLabel('Key').fill('sk-upstream-key-123456789');
    await form.getByRole('button', { name: 'Add a channel' }).click();
    await page.locator('tr', { hasText: 'openai' }).getByText('sk-…6789').waitFor();
    assert.match(
      server.stdout.filter((line) => line.startsWith('console: ')).at(-1)!,
      new RegExp(`admin_token=${new URL(address).searchParams.get('admin_token')}$`),
    );

    await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
    const saved = page.getByRole('form', { name: 'Saved settings' });
    assert.equal(await saved.getByLabel('Secret store').inputValue(), 'file');
    await page.close();
  });
});

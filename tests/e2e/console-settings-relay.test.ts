// End-to-end test in Debian's Chromium of the relay settings: the unrouted policy saved on the Settings page is used by the next start, and the Prices card sets and resets a price.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { adminTokenOf, consoleUrlOf, firstTokenOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the relay settings e2e test: ${skip}`);

describe('relay settings in the console', { skip }, () => {
  const dirs = tempDirs();
  let dataDir: string;
  let settingsFile: string;
  let server: ServeProcess;
  let token: string;
  let browser: Browser;
  let page: Page;
  // No --unrouted flag: the saved setting decides.
  const serve = () =>
    serveCli(['--port', '0', '--tls-port', 'off', '--data-dir', dataDir, '--settings-file', settingsFile, '--secrets', 'none']);
  const open = async (pageName: string) => {
    await page.goto(await consoleUrlOf(server));
    await page.getByRole('navigation').getByRole('link', { name: pageName, exact: true }).click();
  };

  before(async () => {
    await ensureBuilt();
    dataDir = dirs.fresh();
    settingsFile = path.join(dirs.fresh(), 'settings.json');
    server = await serve();
    token = firstTokenOf(server);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await open('Settings');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    dirs.removeAll();
  });

  test('a price set on the Prices card is shown with its unit and charged from the next call; Reset brings the documented price back', async () => {
    const card = page.getByRole('region', { name: 'Prices' });
    const row = card.locator('tr[data-model="sim-echo"]');
    await row.getByText('0.1000 USD').first().waitFor();
    const form = card.getByRole('form', { name: 'Set price' });
    await form.getByLabel('Model').fill('sim-echo');
    await form.getByLabel('Input per 1M tokens').fill('cheap');
    await form.getByRole('button', { name: 'Set price' }).click();
    await form.getByText('Write a price in USD').waitFor();
    await form.getByLabel('Input per 1M tokens').fill('2000000');
    await form.getByLabel('Output per 1M tokens').fill('4');
    await form.getByRole('button', { name: 'Set price' }).click();
    await form.getByText(/input_per_mtok must be a number of USD from 0 to 1000000/).waitFor();
    await form.getByLabel('Input per 1M tokens').fill('2.5');
    await form.getByRole('button', { name: 'Set price' }).click();
    await row.getByText('2.5000 USD').waitFor();
    await row.getByText('set by you').waitFor();
    await screenshot(page, 'settings-prices');

    const answer = await request(`${server.url}/v1/chat/completions`, 'POST', {
      token,
      body: { model: 'sim-echo', messages: [{ role: 'user', content: 'priced by the owner' }] },
    });
    assert.equal(answer.status, 200);
    const { prompt_tokens, completion_tokens } = answer.body.usage;
    const tokens = await request(`${server.url}/admin/api/tokens`, 'GET', {
      token: await adminTokenOf(server),
    });
    const used = tokens.body.find((item: { account: string }) => item.account === 'local').used;
    const expected = (prompt_tokens * 2.5 + completion_tokens * 4) / 1_000_000;
    assert.ok(Math.abs(used - expected) < 1e-6, `charged ${used}, expected ${expected} at the owner's price`);

    await row.getByRole('button', { name: 'Reset the price of sim-echo' }).click();
    await row.getByText('documented default').waitFor();
    await row.getByText('0.1000 USD').first().waitFor();
  });

  test('unrouted models set to reject on the Settings page: saved alone, waiting for a restart, and used by the next start', async () => {
    const form = page.getByRole('form', { name: 'Saved settings' });
    const field = form.getByLabel('Models no channel serves');
    await open('Settings');
    assert.equal(await field.inputValue(), 'auto');
    await field.selectOption('reject');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Waiting for a restart: Models no channel serves.').waitFor();
    assert.deepEqual(JSON.parse(readFileSync(settingsFile, 'utf8')), { unrouted: 'reject' }, 'only the changed setting is saved');
    const simulated = await request(`${server.url}/v1/chat/completions`, 'POST', {
      token,
      body: { model: 'sim-chat', messages: [{ role: 'user', content: 'still simulated on this run' }] },
    });
    assert.equal(simulated.status, 200, 'this run keeps the policy it started with');

    await server.stop();
    server = await serve();
    const refused = await request(`${server.url}/v1/chat/completions`, 'POST', {
      token,
      body: { model: 'sim-chat', messages: [{ role: 'user', content: 'no channel serves me' }] },
    });
    assert.equal(refused.status, 404, 'the next start refuses a model no channel serves');
    await open('Overview');
    await page.getByText('Running (simulate mode)').waitFor();
    await page.getByText('Reject them (the protocol’s “model not found”)').waitFor();
    await screenshot(page, 'overview-unrouted-reject');
  });
});

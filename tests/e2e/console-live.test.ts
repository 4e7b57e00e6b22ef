// End-to-end tests of what the console shows live, in Debian's Chromium against `gatehouse serve` whose scan cannot help: polled statuses, other clients' writes, two windows, refused calls in Logs.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { advanceClockOf, consoleUrlOf, firstTokenOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the live console e2e tests: ${skip}`);

/**
 * How long a change made elsewhere may take to show in an open console, which reloads nothing and polls none of these
 * lists (only pending assets' statuses): a bound for a busy machine, not a speed.
 */
const LIVE = { timeout: 20_000 };
/**
 * How long a simulated review takes on the gateway's clock: an asset stays pending until a test moves the clock past it,
 * however long the page takes to show it.
 */
const REVIEW_MS = 3_600_000;
/** The background scan's interval on the gateway's clock: weeks, so no advance here makes it due and only the console's polls can show a verdict. */
const SCAN_MS = 2_000_000_000;
/**
 * How long a pending asset's status may take to change on screen: the console polls it 1 s after it shows, then 3 s
 * later, backing off to every 10 s. A bound for a busy machine, not a speed.
 */
const REVIEWED = { timeout: 30_000 };

describe('console updates live', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let consoleUrl: string;
  let token: string;
  let page: Page;

  /** A call of the portrait API, as any client makes it. */
  const portrait = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1/portrait${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const envelope = (await response.json()) as { success: boolean; data: any };
    assert.equal(envelope.success, true, JSON.stringify(envelope));
    return envelope.data;
  };

  /** Moves the gateway's clock past a review, as a test suite does through the testing API. */
  const endReviews = () => advanceClockOf(server, consoleUrl, REVIEW_MS);

  /** A console page on the Assets page, connected to the event socket. */
  const openAssets = async () => {
    const opened = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    opened.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await opened.goto(consoleUrl);
    await opened.locator('.live-open').waitFor();
    await opened.getByRole('navigation').getByRole('link', { name: 'Assets', exact: true }).click();
    await opened.getByRole('heading', { level: 1, name: 'Assets' }).waitFor();
    await opened.evaluate('window.__sameDocument = true');
    return opened;
  };

  before(async () => {
    await ensureBuilt();
    // The scan is weeks away: whatever changes on screen during a test is the console's own polling or a pushed event.
    server = await serveCli([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--secrets',
      'none',
      '--sim-review-ms',
      String(REVIEW_MS),
      '--refresh-interval-ms',
      String(SCAN_MS),
    ]);
    consoleUrl = await consoleUrlOf(server);
    token = firstTokenOf(server);
    browser = await launchChromium();
    page = await openAssets();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a registered asset goes Submitted, Processing, Active on screen with no click and no reload', async () => {
    await page.getByRole('form', { name: 'Create group' }).getByLabel('Group name').fill('Presenters');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.locator('.group-list').getByText('Presenters').waitFor();
    // Every status the detail panel's badge shows, in order, however briefly.
    await page.evaluate(`(() => {
      window.__statuses = [];
      const note = () => {
        const badge = document.querySelector('[data-testid="asset-detail"] .badge');
        const text = badge && badge.textContent;
        if (text && window.__statuses[window.__statuses.length - 1] !== text) window.__statuses.push(text);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);

    const form = page.getByRole('form', { name: 'Register an asset' });
    await form.getByLabel('URL').fill('https://cdn.example.com/bruno.png');
    await form.getByLabel('Name (optional)').fill('Bruno');
    await form.getByRole('button', { name: 'Register' }).click();
    const row = page.getByRole('table', { name: 'Assets' }).getByRole('row', { name: /Bruno/ });
    // Polled 1 s after it shows: the review has begun (Processing). Once the review's time has passed, a later poll finds it over.
    await row.locator('.badge', { hasText: 'Processing' }).waitFor(REVIEWED);
    await endReviews();
    await row.locator('.badge', { hasText: 'Active' }).waitFor(REVIEWED);
    await page.getByTestId('asset-detail').locator('.badge', { hasText: 'Active' }).waitFor();
    assert.deepEqual(await page.evaluate('window.__statuses'), ['Submitted', 'Processing', 'Active']);
    assert.match((await page.getByTestId('resolved-url').textContent())!, /^asset:\/\//);
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'no reload happened');
  });

  test('a group and an asset created through the portrait API appear in an open console without a reload', async () => {
    const group = await portrait('POST', '/groups', { name: 'Made with fetch', description: 'by a script' });
    await page.locator('.group-list').getByText('Made with fetch').waitFor(LIVE);

    await portrait('POST', '/assets', {
      group_id: group.group_id,
      url: 'https://cdn.example.com/carla.png',
      asset_type: 'Image',
      name: 'Carla',
    });
    const row = page.getByRole('table', { name: 'Assets' }).getByRole('row', { name: /Carla/ });
    await row.waitFor(LIVE);
    // Shown, so polled like any pending asset.
    await row.locator('.badge', { hasText: 'Processing' }).waitFor(REVIEWED);
    await endReviews();
    await row.locator('.badge', { hasText: 'Active' }).waitFor(REVIEWED);

    await portrait('PUT', `/groups/${group.group_id}`, { name: 'Renamed by a script' });
    await page.locator('.group-list').getByText('Renamed by a script').waitFor(LIVE);
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'no reload happened');
  });

  test('two console windows agree after a rename in one of them', async () => {
    const other = await openAssets();
    try {
      await other.locator('.group-list').getByText('Presenters').waitFor();
      const item = page.locator('.group-list li', { hasText: 'Presenters' });
      await item.getByRole('button', { name: 'Edit' }).click();
      await page.locator('.group-editor').getByLabel('Group name').fill('Hosts');
      await page.locator('.group-editor').getByRole('button', { name: 'Save' }).click();
      await page.locator('.group-list').getByText('Hosts').waitFor();
      await other.locator('.group-list').getByText('Hosts').waitFor(LIVE);
      assert.equal(await other.locator('.group-list').getByText('Presenters').count(), 0);
      assert.equal(await other.evaluate('window.__sameDocument'), true, 'no reload happened');
      await screenshot(other, 'assets-second-window');
    } finally {
      await other.close();
    }
  });

  test('Logs show a call refused for its quota with its account, token, model and body', async () => {
    const adminToken = new URL(consoleUrl).searchParams.get('admin_token')!;
    const created = await fetch(`${server.url}/admin/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'local', name: 'spent-bot', quota: 0 }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const { secret } = (await created.json()) as { secret: string };
    const refused = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'over my quota already' }] }),
    });
    assert.equal(refused.status, 403);

    await page.getByRole('navigation').getByRole('link', { name: 'Logs', exact: true }).click();
    const row = page.getByRole('table', { name: 'API calls' }).locator('tbody tr').filter({ hasText: 'POST /v1/chat/completions' });
    await row.first().waitFor();
    assert.match((await row.first().textContent())!, /sim-chat/);
    assert.match((await row.first().textContent())!, /local/);
    await row.first().getByRole('button').first().click();
    const detail = page.getByTestId('log-detail');
    await detail.waitFor();
    assert.equal(await detail.getByTestId('log-token').textContent(), 'spent-bot');
    assert.match((await detail.getByTestId('log-error').textContent())!, /quota/);
    await detail.getByRole('tab', { name: 'Request' }).click();
    assert.match((await page.getByTestId('log-request').textContent())!, /over my quota already/);
    await screenshot(page, 'logs-refused-call');
  });
});

// End-to-end test of managing portrait assets in Chromium: search and sort by name, register a failed asset again with a corrected URL, delete assets and groups after a confirmation (a second window follows).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertFitsWidth, browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the asset management e2e tests: ${skip}`);

describe('console asset management', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let token: string;
  let consoleUrl: string;
  let groupId: string;
  let otherGroupId: string;

  /** A portrait API call with the account's token, as any client makes it; answers the envelope. */
  const portrait = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1/portrait${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return (await response.json()) as { success: boolean; message: string; data: any };
  };
  const register = async (group: string, name: string, url: string) =>
    (await portrait('POST', '/assets', { group_id: group, url, asset_type: 'Image', name })).data.asset_id as string;
  const table = (on: Page = page) => on.getByRole('table', { name: 'Assets' });
  const names = async () => (await table().locator('tbody tr td:first-child').allTextContents()).map((text) => text.trim());

  const openAssets = async (on: Page) => {
    await on.goto(consoleUrl);
    await on.getByRole('navigation').getByRole('link', { name: 'Assets', exact: true }).click();
    await on.getByRole('heading', { level: 1, name: 'Assets' }).waitFor();
  };

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none', '--sim-review-ms', '300']);
    token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    consoleUrl = await consoleUrlOf(server);
    groupId = (await portrait('POST', '/groups', { name: 'Studio' })).data.group_id;
    otherGroupId = (await portrait('POST', '/groups', { name: 'Archive' })).data.group_id;
    for (const name of ['zeta', 'alpha', 'Mid']) await register(groupId, name, `https://cdn.example.com/${name}.png`);
    await register(otherGroupId, 'archived', 'https://cdn.example.com/archived.png');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await openAssets(page);
    await table().locator('tbody tr').first().waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('assets are searched by part of their name and sorted by name either way', async () => {
    assert.deepEqual(await names(), ['zeta', 'alpha', 'Mid', 'archived'], 'oldest first by default');
    await page.getByLabel('Sort').selectOption('name');
    await table().locator('tbody tr').first().filter({ hasText: 'alpha' }).waitFor();
    assert.deepEqual(await names(), ['alpha', 'archived', 'Mid', 'zeta']);
    await page.getByLabel('Sort').selectOption('name_desc');
    await table().locator('tbody tr').first().filter({ hasText: 'zeta' }).waitFor();
    assert.deepEqual(await names(), ['zeta', 'Mid', 'archived', 'alpha']);
    await page.getByLabel('Name', { exact: true }).fill('ALP');
    await table().locator('tbody tr', { hasText: 'zeta' }).waitFor({ state: 'detached' });
    assert.deepEqual(await names(), ['alpha']);
    await page.getByLabel('Name', { exact: true }).fill('');
    await table().locator('tbody tr', { hasText: 'zeta' }).waitFor();
    await page.getByLabel('Sort').selectOption('created');
    await screenshot(page, 'assets-sorted');
    for (const width of [1280, 800]) await assertFitsWidth(page, width, 'the Assets page with search and sort');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('a failed asset is registered again with a corrected URL: a new asset replaces it', async () => {
    const failedId = await register(groupId, 'typo', 'https://cdn.example.com/reject-typo.png');
    const row = table().locator(`tr[data-asset-id="${failedId}"]`);
    await row.locator('.badge', { hasText: 'Failed' }).waitFor();
    await row.getByRole('button', { name: 'typo' }).click();
    const form = page.getByRole('form', { name: 'Register again' });
    await form.getByLabel('Corrected URL').fill('https://cdn.example.com/typo-fixed.png');
    await form.getByRole('button', { name: 'Register again' }).click();
    await row.waitFor({ state: 'detached' });
    const detail = page.getByTestId('asset-detail');
    await detail.locator('.badge', { hasText: 'Active' }).waitFor();
    assert.match((await detail.textContent())!, /typo-fixed\.png/);
    assert.match((await detail.textContent())!, /typo/);
    assert.equal((await portrait('GET', `/assets/${failedId}`)).message, 'Asset does not exist', 'the failed one is gone');
  });

  test('an asset is deleted after a confirmation, and a second window drops it too', async () => {
    const second = await browser.newPage({ viewport: { width: 800, height: 800 } });
    await openAssets(second);
    const alphaId = (await portrait('GET', `/assets?group_id=${groupId}`)).data.items.find((item: any) => item.name === 'alpha').asset_id;
    await table(second).locator(`tr[data-asset-id="${alphaId}"]`).waitFor();

    await table().locator(`tr[data-asset-id="${alphaId}"]`).getByRole('button', { name: 'alpha' }).click();
    await page.getByRole('button', { name: 'Delete asset' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    assert.match((await dialog.textContent())!, /Delete the asset “alpha”\?/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await portrait('GET', `/assets/${alphaId}`)).success, true, 'cancel deletes nothing');

    await page.getByRole('button', { name: 'Delete asset' }).click();
    await screenshot(page, 'assets-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await table().locator(`tr[data-asset-id="${alphaId}"]`).waitFor({ state: 'detached' });
    await table(second).locator(`tr[data-asset-id="${alphaId}"]`).waitFor({ state: 'detached' });
    assert.equal((await portrait('GET', `/assets/${alphaId}`)).message, 'Asset does not exist');
    await second.close();
  });

  test('a group is deleted with its assets after a confirmation', async () => {
    await page.getByRole('button', { name: 'Delete group Archive' }).click();
    const dialog = page.getByRole('alertdialog');
    assert.match((await dialog.textContent())!, /Delete the group “Archive” and all its assets\?/);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.group-list').getByText('Archive').waitFor({ state: 'detached' });
    await table().locator('tbody tr', { hasText: 'archived' }).waitFor({ state: 'detached' });
    const groups = (await portrait('GET', '/groups')).data.items.map((group: { name: string }) => group.name);
    assert.deepEqual(groups, ['Studio']);
    assert.equal((await portrait('GET', `/assets?group_id=${otherGroupId}`)).data.total, 0);
  });
});

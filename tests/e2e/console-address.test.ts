// End-to-end test of the bookmarkable console address in Debian's Chromium: kept from the first start, it survives a restart on the same data dir, and stops working once the console secret is rotated (CLI or Settings).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, privateServeArgs, runCli, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the console address e2e test: ${skip}`);

/** A port nothing listens on now, so two runs can use the same address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('bookmarkable console address', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess | undefined;
  let browser: Browser;
  let port: number;

  const start = async (secrets: 'file' | 'none' = 'file') => {
    server = await serveCli(privateServeArgs(dataDir, { secrets, port }));
    return consoleUrlOf(server);
  };
  const stop = async () => {
    await server?.stop();
    server = undefined;
  };

  /** Opens `address` in a fresh tab, as a bookmark is opened; resolves once the console shows the overview or says the address is stale. */
  const openBookmark = async (address: string): Promise<{ page: Page; opened: boolean }> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(address);
    const overview = page.getByTestId('base-url');
    const stale = page.getByRole('alert').filter({ hasText: 'earlier run' });
    await overview.or(stale).first().waitFor();
    return { page, opened: await overview.isVisible() };
  };

  before(async () => {
    await ensureBuilt();
    port = await freePort();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('kept from the first start, the address survives a restart; after `gatehouse console-secret rotate` it no longer opens the console', async () => {
    const bookmark = await start();
    const first = await openBookmark(bookmark);
    assert.equal(first.opened, true);
    await first.page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
    await first.page.getByText('a bookmark keeps working across restarts').waitFor();
    await screenshot(first.page, 'settings-console-address');
    await first.page.close();
    await stop();

    assert.equal(await start(), bookmark, 'the next start prints the kept address');
    const again = await openBookmark(bookmark);
    assert.equal(again.opened, true);
    await again.page.close();
    await stop();

    const rotated = runCli(['console-secret', 'rotate', '--data-dir', dataDir, '--secrets', 'file']);
    assert.equal(rotated.code, 0, rotated.stderr);
    const fresh = await start();
    assert.notEqual(fresh, bookmark);
    const stale = await openBookmark(bookmark);
    assert.equal(stale.opened, false, 'the old address no longer opens the console');
    await stale.page.close();
    const current = await openBookmark(fresh);
    assert.equal(current.opened, true);
    await current.page.close();
  });

  test('rotating from Settings moves this tab to the new address, and the old one stops working at once', async () => {
    const before = await consoleUrlOf(server!);
    const { page } = await openBookmark(before);
    await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Rotate console secret' }).click();
    await page.getByRole('button', { name: 'Rotate console secret' }).click();
    await page.waitForURL((url) => url.searchParams.get('admin_token') === null && url.pathname.startsWith('/console'));
    await page.getByTestId('base-url').waitFor();
    const oldToken = new URL(before).searchParams.get('admin_token')!;
    const newToken = (await page.evaluate("sessionStorage.getItem('gatehouse.adminToken')")) as string;
    assert.notEqual(newToken, oldToken);
    const status = (token: string) => fetch(`${server!.url}/admin/api/status`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await status(oldToken)).status, 401);
    assert.equal((await status(newToken)).status, 200);
    await page.close();
  });

  test('under --secrets none the address is made per run, and Settings says so', async () => {
    await stop();
    const perRun = await start('none');
    await stop();
    const next = await start('none');
    assert.notEqual(next, perRun);
    const { page, opened } = await openBookmark(next);
    assert.equal(opened, true);
    await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByText('made for this run only').waitFor();
    assert.equal(await page.getByRole('button', { name: /Rotate console secret|Keep a bookmarkable address/ }).count(), 0);
    await page.close();
  });
});

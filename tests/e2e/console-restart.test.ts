// End-to-end test of restarting `gatehouse serve` from the console in Debian's Chromium: a saved setting that waits for a restart is live after "Restart server now".
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the restart e2e test: ${skip}`);

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('restart from the console under gatehouse serve', { skip }, () => {
  const dataDir = tempDataDir();
  const settingsFile = path.join(dataDir, 'settings.json');
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    await ensureBuilt();
    // TLS off from the settings file (not a flag), so the console may change it.
    writeFileSync(settingsFile, JSON.stringify({ tlsPort: null }));
    // A fixed port: a restart listens on the same address again (with --port 0 it would pick another).
    server = await serveCli([
      '--port',
      String(await freePort()),
      '--data-dir',
      dataDir,
      '--settings-file',
      settingsFile,
      '--secrets',
      'none',
    ]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a TLS port saved on the page listens after "Restart server now", and the same tab keeps working', async () => {
    const tlsPort = await freePort();
    const form = page.getByRole('form', { name: 'Saved settings' });
    await form.getByLabel('TLS listener (https:// and wss://)').check();
    await form.getByLabel('TLS port').fill(String(tlsPort));
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Waiting for a restart: TLS port.').waitFor();
    assert.equal(JSON.parse(readFileSync(settingsFile, 'utf8')).tlsPort, tlsPort);
    assert.equal(server.stdout.filter((line) => line.startsWith('tls listening on')).length, 0);

    await page.getByRole('button', { name: 'Restart server now' }).click();
    await page.getByText('The server restarted with the saved settings.').waitFor({ timeout: 40_000 });
    assert.ok(server.stdout.includes(`tls listening on https://127.0.0.1:${tlsPort}`), server.stdout.join('\n'));
    // The new run answers on the new TLS port, and this tab (per-run admin token handed on) still reads its status.
    await page.getByRole('navigation').getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByText(`https://127.0.0.1:${tlsPort}`).first().waitFor();
    await screenshot(page, 'restarted-overview');
  });
});

// End-to-end test of the Settings page in Debian's Chromium: a CORS origin saved there lets a page on that origin call the API at once; bad input is caught inline; restart-only changes say so.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the settings e2e test: ${skip}`);

/** Calls the gateway's chat endpoint from the page, as a browser app would; answers the content or the fetch error. */
async function callFromPage([url, token]: string[]): Promise<string> {
  try {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello from a web app' }] }),
    });
    const body = (await response.json()) as any;
    return `ok: ${body.choices[0].message.content}`;
  } catch (error) {
    return `blocked: ${(error as Error).message}`;
  }
}

describe('settings page', { skip }, () => {
  const dataDir = tempDataDir();
  const settingsFile = path.join(dataDir, 'settings.json');
  let server: ServeProcess;
  let webApp: Server;
  let webAppOrigin: string;
  let browser: Browser;
  let page: Page;
  let token: string;

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--settings-file', settingsFile, '--secrets', 'none']);
    token = server.stdout
      .find((line) => line.startsWith('first start:'))!
      .split(': ')
      .at(-1)!;
    webApp = createServer((_request, response) => response.end('<!doctype html><title>web app</title><p>a web app on another origin</p>'));
    await new Promise<void>((resolve) => webApp.listen(0, 'localhost', resolve));
    webAppOrigin = `http://localhost:${(webApp.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    webApp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a CORS origin saved on the page lets a web app on that origin call the API, without a restart', async () => {
    const other = await browser.newPage();
    await other.goto(webAppOrigin);
    assert.match(
      await other.evaluate(callFromPage, [server.url, token]),
      /^blocked: /,
      'the browser blocks the call before the origin is allowed',
    );

    const form = page.getByRole('form', { name: 'Saved settings' });
    await form.getByLabel('CORS origins').fill(`localhost:3000`);
    await form.getByText(/is not an origin/).waitFor();
    assert.equal(await form.getByRole('button', { name: 'Save settings' }).isDisabled(), true, 'a bad origin cannot be saved');

    await form.getByLabel('CORS origins').fill(webAppOrigin);
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved. Applied now: CORS origins.').waitFor();
    assert.deepEqual(JSON.parse(readFileSync(settingsFile, 'utf8')).corsOrigins, [webAppOrigin]);
    await page.getByRole('region', { name: 'This run' }).getByText(webAppOrigin).waitFor();

    assert.match(await other.evaluate(callFromPage, [server.url, token]), /^ok: \S/, 'the same call now goes through');
    await other.close();
    await screenshot(page, 'settings-saved');
  });

  test("saving writes what the user changed, never this run's flags: a plain next start does not inherit --port 0", async () => {
    const onDisk = JSON.parse(readFileSync(settingsFile, 'utf8'));
    assert.deepEqual(Object.keys(onDisk), ['corsOrigins'], 'only the CORS origins the user typed were saved');
    const form = page.getByRole('form', { name: 'Saved settings' });
    assert.equal(
      await form.getByLabel('Port', { exact: true }).isDisabled(),
      true,
      'a port set by --port is shown, not offered for saving',
    );
    assert.equal(await form.getByLabel('Port', { exact: true }).inputValue(), '8790', 'what a start without --port takes');
  });

  test('a port fixed by a flag says so; a TLS change waits for a restart of gatehouse serve', async () => {
    const form = page.getByRole('form', { name: 'Saved settings' });
    await form.getByText('On this run --port sets this').waitFor();
    await form.getByLabel('TLS listener (https:// and wss://)').uncheck();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Waiting for a restart: TLS port.').waitFor();
    await page.getByText('Stop `gatehouse serve` and start it again to apply them.').waitFor();
    assert.equal(JSON.parse(readFileSync(settingsFile, 'utf8')).tlsPort, null);
  });
});

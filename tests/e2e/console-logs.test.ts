// End-to-end test of the Logs page in Debian's Chromium against `gatehouse serve`: calls an SDK makes appear live, filters, details with stream timing, a curl replay that works, clearing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { adminTokenOf, consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Logs e2e tests: ${skip}`);

describe('console Logs page', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let token: string;
  let client: OpenAI;

  const table = () => page.getByRole('table', { name: 'API calls' });
  const rows = () => table().locator('tbody tr');

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    client = new OpenAI({ apiKey: token, baseURL: `${server.url}/v1`, maxRetries: 0 });
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1500, height: 1000 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByTestId('base-url').waitFor();
    await page.locator('.live-open').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('an empty journal says how to fill it; an SDK call then appears without a reload', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Logs', exact: true }).click();
    await page.getByText('No API calls recorded yet').waitFor();
    await page.evaluate('window.__sameDocument = true');

    await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello from the logs test' }] });
    const row = rows().filter({ hasText: 'POST /v1/chat/completions' });
    await row.waitFor();
    assert.match((await row.textContent())!, /sim-chat/);
    assert.match((await row.textContent())!, /local/);
    assert.match((await row.locator('.badge').first().textContent())!, /^200$/);
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'no reload happened');
  });

  test('a streamed call shows its bodies and its timing, write by write', async () => {
    const stream = await client.chat.completions.create(
      { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'stream something to time' }] },
      { headers: { 'x-gatehouse-pace': '60' } },
    );
    let deltas = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas += 1;
    const row = rows().filter({ hasText: 'stream' }).first();
    await row.waitFor();
    await row.getByRole('button').click();

    const detail = page.getByTestId('log-detail');
    await detail.waitFor();
    const writes = Number(await detail.getByTestId('stream-chunks').textContent());
    assert.ok(writes > deltas, `every delta is a write, plus role, finish and [DONE]: ${writes} writes for ${deltas} deltas`);
    assert.equal(await detail.locator('.timeline .tick').count(), writes, 'one tick per write');
    assert.equal(
      await detail.getByText('The stream ended before its natural end').count(),
      0,
      'a stream read to its end is not reported cut',
    );
    assert.match((await page.getByTestId('log-response').locator('.body-text').textContent())!, /data: \[DONE\]/);
    await detail.getByRole('tab', { name: 'Request' }).click();
    const request = (await page.getByTestId('log-request').textContent())!;
    assert.match(request, /stream something to time/);
    assert.match(request, /x-gatehouse-pace/);
    assert.equal(request.includes(token), false, 'the token is not shown');
    await screenshot(page, 'logs-stream-detail');
  });

  test('filters narrow the table: errors only, then a path typed in', async () => {
    // A call without a valid token is only counted; a token holder's failed call is listed with its error.
    await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer sk-gh-not-a-real-token' } });
    await fetch(`${server.url}/v1/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await client.embeddings.create({ model: 'sim-embed', input: 'vectors for the filter test' });
    await rows().filter({ hasText: '/v1/embeddings' }).waitFor();

    await page.getByLabel('Outcome').selectOption('error');
    const refused = rows().filter({ hasText: 'POST /v1/completions' });
    await refused.waitFor();
    await rows().filter({ hasText: '/v1/embeddings' }).waitFor({ state: 'detached' });
    assert.equal(await rows().count(), 1);
    assert.match((await refused.textContent())!, /400/);
    assert.match((await refused.textContent())!, /Missing required parameter/, 'the error the caller got is shown');
    await page.getByText(/1 call\(s\) naming no API token of this gateway .* not recorded/).waitFor();

    await page.getByLabel('Outcome').selectOption('');
    // The page keeps the errors-only list (no chat call in it) until the full one is in: wait for it (bounded by Playwright's
    // timeout), or the "chat calls gone" below would pass on that earlier list and count its one row.
    await rows().filter({ hasText: '/v1/chat/completions' }).first().waitFor();
    await page.getByLabel('Path').fill('embeddings');
    await rows().filter({ hasText: '/v1/chat/completions' }).first().waitFor({ state: 'detached' });
    assert.equal(await rows().count(), 1);
    await rows().filter({ hasText: '/v1/embeddings' }).waitFor();
    await screenshot(page, 'logs');
    await page.getByLabel('Path').fill('');
    await rows().filter({ hasText: '/v1/chat/completions' }).first().waitFor();

    // A second account's call, then only that account's calls.
    const adminToken = await adminTokenOf(server);
    const created = await fetch(`${server.url}/admin/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'logs-bot' }),
    }).then((response) => response.json() as Promise<{ secret: string }>);
    await new OpenAI({ apiKey: created.secret, baseURL: `${server.url}/v1`, maxRetries: 0 }).models.list();
    await rows().filter({ hasText: 'logs-bot' }).waitFor();
    // The new account joins the account lists without a reload.
    await page.getByLabel('Account of the call').locator('option', { hasText: 'logs-bot' }).waitFor({ state: 'attached' });
    await page.getByLabel('Account of the call').selectOption('logs-bot');
    await rows().filter({ hasText: '/v1/chat/completions' }).first().waitFor({ state: 'detached' });
    assert.equal(await rows().count(), 1);
    assert.match((await rows().first().textContent())!, /GET \/v1\/models.*logs-bot/);
    await page.getByLabel('Account of the call').selectOption('');
  });

  test('"Copy as curl" gives a command that replays the call with the token from $TOKEN', async () => {
    await rows().filter({ hasText: '/v1/embeddings' }).getByRole('button').click();
    const detail = page.getByTestId('log-detail');
    await detail.getByText('POST /v1/embeddings').waitFor();
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const command = (await page.evaluate('navigator.clipboard.readText()')) as string;
    assert.match(command, /^curl 'http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings'/);
    assert.equal(command.includes(token), false, 'the command holds no token');

    const replay = spawnSync('sh', ['-c', `${command} -s`], { env: { ...process.env, TOKEN: token }, encoding: 'utf8' });
    assert.equal(replay.status, 0, replay.stderr);
    const body = JSON.parse(replay.stdout);
    assert.equal(body.object, 'list');
    assert.equal(body.model, 'sim-embed');
    // The replay is itself a call: it joins the table.
    await rows().filter({ hasText: '/v1/embeddings' }).nth(1).waitFor();
  });

  test('at 1280 and 800 px the table shows account, status and duration, an opened call is in view, and Escape closes it', async () => {
    for (const width of [1280, 800]) {
      const narrow = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await narrow.goto(await consoleUrlOf(server));
        await narrow.getByRole('navigation').getByRole('link', { name: 'Logs', exact: true }).click();
        const row = narrow
          .getByRole('table', { name: 'API calls' })
          .locator('tbody tr')
          .filter({ hasText: '/v1/chat/completions' })
          .first();
        await row.waitFor();
        /** True when the middle of `locator` is on screen and not clipped or covered: what the user can see. */
        const inView = async (locator: ReturnType<Page['locator']>, what: string) => {
          const handle = await locator.elementHandle();
          assert.ok(handle, `${what} is laid out at ${width} px`);
          const seen = await handle.evaluate((el: any) => {
            const box = el.getBoundingClientRect();
            const hit = (globalThis as any).document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return hit !== null && (hit === el || el.contains(hit));
          });
          assert.ok(seen, `${what} is visible at ${width} px (not scrolled away, clipped or covered)`);
        };
        await inView(row.getByText('local'), 'the account');
        await inView(row.locator('.badge').first(), 'the status');
        await inView(row.getByText(/\d+ ms/), 'the duration');
        await row.getByRole('button').click();
        const detail = narrow.getByTestId('log-detail');
        await detail.waitFor();
        await narrow.waitForFunction(
          `(() => { const box = document.querySelector('[data-testid="log-detail"]').getBoundingClientRect(); return box.top >= 0 && box.top < window.innerHeight; })()`,
        );
        await screenshot(narrow, `logs-${width}`);
        await narrow.keyboard.press('Escape');
        await detail.waitFor({ state: 'detached' });
      } finally {
        await narrow.close();
      }
    }
  });

  test('"Errors" lists a portrait call refused with success:false although its HTTP status is 200', async () => {
    const refused = await fetch(`${server.url}/v1/portrait/groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(refused.status, 200);
    assert.equal(((await refused.json()) as { success: boolean }).success, false);
    await page.getByLabel('Outcome').selectOption('error');
    // The page keeps the full list, where the call may already be, until the errors-only one is in: wait for the chat calls
    // to leave (bounded by Playwright's timeout), so the row read is the errors list's.
    await rows().filter({ hasText: '/v1/chat/completions' }).first().waitFor({ state: 'detached' });
    const row = rows().filter({ hasText: 'POST /v1/portrait/groups' });
    await row.waitFor();
    assert.match((await row.textContent())!, /200/);
    await page.getByLabel('Outcome').selectOption('ok');
    await row.waitFor({ state: 'detached' });
    await page.getByLabel('Outcome').selectOption('');
  });

  test('clearing the journal empties the table after a confirmation', async () => {
    await page.getByRole('button', { name: 'Clear journal' }).click();
    await page.getByRole('button', { name: 'Delete every entry' }).click();
    await page.getByText('No API calls recorded yet').waitFor();
    assert.equal(await page.getByTestId('log-detail').count(), 0, 'the details close');
  });
});

describe('console Logs page with the journal off', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none', '--journal', 'off']);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('says that calls are not being recorded and how to turn recording on', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${await consoleUrlOf(server)}#/logs`);
    const notice = page.getByTestId('journal-off');
    await notice.waitFor();
    assert.match((await notice.textContent())!, /--journal off/);
    await page.getByText('Calls answered while the journal is off leave no record.').waitFor();
  });
});

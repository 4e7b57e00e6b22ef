// End-to-end test of the 3D tasks page in Chromium: tasks made by any client are listed from the gateway (in a fresh browser session too), with their prompt, per account, and looked up by id.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertFitsWidth, browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the 3D tasks e2e tests: ${skip}`);

describe('console 3D tasks page', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let consoleUrl: string;
  let token: string;

  /** Creates a task the way curl would, with `secret`. */
  const createTask = async (secret: string, prompt: string): Promise<string> => {
    const response = await fetch(`${server.url}/v1/3d/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-3d', prompt }),
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { task_id: string }).task_id;
  };

  /** A fresh browser session (no storage of an earlier one) on the 3D tasks page. */
  const openFresh = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(consoleUrl);
    await page.getByRole('navigation').getByRole('link', { name: '3D tasks', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '3D tasks' }).waitFor();
    return page;
  };

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none'], { GATEHOUSE_SIM_3D_MS: '1500' });
    token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    consoleUrl = await consoleUrlOf(server);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a task made with curl is listed with its prompt in a new browser session, and finishes there', async () => {
    const taskId = await createTask(token, 'a brass lantern made from the command line');
    const page = await openFresh();
    const card = page.locator(`.task-card[data-task-id="${taskId}"]`);
    await card.waitFor();
    assert.match((await card.getByTestId('task-prompt').textContent())!, /a brass lantern made from the command line/);
    assert.match((await card.textContent())!, /local/, 'the card names the account');
    await page.locator(`.task-card[data-task-id="${taskId}"][data-status="SUCCESS"]`).waitFor({ timeout: 30_000 });
    assert.ok(await card.getByRole('button', { name: /^Download GLB$/ }).count(), 'its file can be downloaded without a token');
    await screenshot(page, 'tasks3d-list');
    for (const width of [1280, 800]) await assertFitsWidth(page, width, 'the 3D tasks page');
    await screenshot(page, 'tasks3d-list-800');
    await page.context().close();
  });

  test('the list is per account, newest first, and a task is found by its id', async () => {
    const adminToken = new URL(consoleUrl).searchParams.get('admin_token')!;
    const made = await fetch(`${server.url}/admin/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'studio', name: 'sdk' }),
    });
    const studio = ((await made.json()) as { secret: string }).secret;
    const studioTask = await createTask(studio, 'a studio teapot');
    const localTask = await createTask(token, 'a local kettle');

    const page = await openFresh();
    const cards = page.locator('.task-card');
    await page.locator(`.task-card[data-task-id="${studioTask}"]`).waitFor();
    assert.equal(await cards.first().getAttribute('data-task-id'), localTask, 'the newest task comes first');

    await page.getByLabel('Filter by account').selectOption('studio');
    await page.locator(`.task-card[data-task-id="${studioTask}"]`).waitFor();
    await page.locator(`.task-card[data-task-id="${localTask}"]`).waitFor({ state: 'detached' });
    assert.equal(await cards.count(), 1, "no other account's task is listed");

    await page.getByLabel('Task id').fill(localTask);
    await page.getByRole('button', { name: 'Look up' }).click();
    const found = page.getByRole('region', { name: 'Look up a task' }).locator(`.task-card[data-task-id="${localTask}"]`);
    await found.waitFor();
    assert.match((await found.textContent())!, /a local kettle/);

    await page.getByLabel('Task id').fill('task_does_not_exist');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('alert').filter({ hasText: 'task_does_not_exist does not exist' }).waitFor();
    await page.context().close();
  });
});

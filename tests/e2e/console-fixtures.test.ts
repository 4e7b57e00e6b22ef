// End-to-end test of the console's Fixtures page and the Logs answer source, in Debian's Chromium against `gatehouse serve --fixtures`:
// file and runtime fixtures listed with their match counts, one added from JSON (a bad one named by field), edited and deleted;
// Logs says which fixture answered a call (a link to it) or "simulated", and filters by test id.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { assertFitsWidth, browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, firstTokenOf, privateServeArgs, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Fixtures e2e tests: ${skip}`);

describe('console Fixtures page and the Logs answer source', { skip }, () => {
  const dirs = tempDirs();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let client: OpenAI;
  let scoped: OpenAI;

  const ask = async (openai: OpenAI, content: string) =>
    (await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] })).choices[0]!.message.content;
  const admin = (method: string, route: string, body?: unknown) =>
    request(`${server.url}/admin/api${route}`, method, { token: adminToken, ...(body !== undefined && { body }) });
  const go = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  const runtimeTable = () => page.getByRole('table', { name: 'Runtime fixtures' });
  const fileTable = () => page.getByRole('table', { name: 'Loaded from files' });
  const rowOf = (table: ReturnType<typeof runtimeTable>, name: string) => table.locator('tbody tr').filter({ hasText: name });
  const editor = () => page.getByRole('form', { name: 'Add a runtime fixture' });

  before(async () => {
    await ensureBuilt();
    const dir = dirs.fresh();
    const file = path.join(dir, 'suite.json');
    writeFileSync(
      file,
      JSON.stringify({ fixtures: [{ name: 'file-greeting', match: { user: 'hello file' }, response: { text: 'Hi from the file' } }] }),
    );
    server = await serveCli([...privateServeArgs(dirs.fresh()), '--fixtures', file]);
    const consoleUrl = await consoleUrlOf(server);
    adminToken = new URL(consoleUrl).searchParams.get('admin_token')!;
    client = new OpenAI({ apiKey: firstTokenOf(server), baseURL: `${server.url}/v1`, maxRetries: 0 });
    scoped = new OpenAI({
      apiKey: firstTokenOf(server),
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-gatehouse-test-id': 'checkout' },
    });
    const added = await admin('POST', '/fixtures', {
      fixtures: [
        {
          name: 'runtime-weather',
          match: { user: 'weather' },
          response: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
        },
      ],
      test_id: 'checkout',
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(consoleUrl);
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('lists the file fixture with its file and index and the runtime one with its test id, each with its match count', async () => {
    assert.equal(await ask(client, 'hello file, are you there?'), 'Hi from the file');
    assert.equal(await ask(client, 'hello file again'), 'Hi from the file');
    await scoped.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'weather in Paris?' }] });
    await go('Fixtures');
    const fileRow = rowOf(fileTable(), 'file-greeting');
    await fileRow.waitFor();
    assert.match((await fileRow.textContent())!, /suite\.json#0/);
    assert.match((await fileRow.textContent())!, /user "hello file"/);
    assert.match((await fileRow.textContent())!, /text "Hi from the file"/);
    assert.equal(await fileRow.getByTestId('fixture-matched').textContent(), '2');
    assert.equal(await fileRow.getByRole('button', { name: 'Edit' }).count(), 0, 'file fixtures are read-only');
    const runtimeRow = rowOf(runtimeTable(), 'runtime-weather');
    assert.match((await runtimeRow.textContent())!, /runtime#0/);
    assert.match((await runtimeRow.textContent())!, /test id checkout/);
    assert.match((await runtimeRow.textContent())!, /tool calls get_weather/);
    assert.equal(await runtimeRow.getByTestId('fixture-matched').textContent(), '1');

    // Reset the counts: both start over.
    await page.getByRole('button', { name: 'Reset match counts' }).click();
    await fileRow.getByTestId('fixture-matched').filter({ hasText: /^0$/ }).waitFor();
    await runtimeRow.getByTestId('fixture-matched').filter({ hasText: /^0$/ }).waitFor();
  });

  test('adds a fixture from JSON (a bad one shows the field the gateway names), edits it and deletes it', async () => {
    const json = editor().getByLabel('Fixture (JSON)');
    await json.fill(JSON.stringify({ name: 'console-made', match: { user: 'from the console' }, response: { colour: 'blue' } }));
    await editor().getByRole('button', { name: 'Add fixture' }).click();
    const problem = editor().locator('.field-error');
    await problem.waitFor();
    assert.match((await problem.textContent())!, /response\.colour/);
    await json.fill('{"name": "console-made", ');
    await editor().getByRole('button', { name: 'Add fixture' }).click();
    await problem.filter({ hasText: 'Not valid JSON' }).waitFor();

    await json.fill(
      JSON.stringify({ name: 'console-made', match: { user: 'from the console' }, response: { text: 'made in the console' } }),
    );
    await editor().getByRole('button', { name: 'Add fixture' }).click();
    const row = rowOf(runtimeTable(), 'console-made');
    await row.waitFor();
    assert.equal(await editor().locator('.field-error').count(), 0);
    assert.equal(await ask(client, 'answer from the console please'), 'made in the console');
    // Counted live, without a reload.
    await row.getByTestId('fixture-matched').filter({ hasText: /^1$/ }).waitFor();

    await row.getByRole('button', { name: 'Edit' }).click();
    const editing = page.getByRole('form', { name: 'Edit fixture console-made' });
    await editing.waitFor();
    const text = await editing.getByLabel('Fixture (JSON)').inputValue();
    assert.match(text, /"made in the console"/);
    await editing.getByLabel('Fixture (JSON)').fill(text.replace('made in the console', 'edited in the console'));
    await editing.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Add a runtime fixture' }).waitFor();
    assert.equal(await ask(client, 'answer from the console please'), 'edited in the console');
    assert.equal(await rowOf(runtimeTable(), 'console-made').count(), 1, 'edited in place, not added twice');

    await rowOf(runtimeTable(), 'console-made').getByRole('button', { name: 'Delete' }).click();
    await rowOf(runtimeTable(), 'console-made').getByRole('button', { name: 'Delete it' }).click();
    await rowOf(runtimeTable(), 'console-made').waitFor({ state: 'detached' });
    assert.notEqual(await ask(client, 'answer from the console please'), 'edited in the console');
    assert.equal(await rowOf(runtimeTable(), 'runtime-weather').count(), 1, 'the other runtime fixture stays');
  });

  test('fits 390, 800 and 1280 px windows', async () => {
    for (const width of [390, 800, 1280]) {
      await assertFitsWidth(page, width, `the Fixtures page at ${width} px`);
      if (width !== 800) await screenshot(page, `fixtures-${width}`);
    }
    // Dark, as the system asks (the theme's default).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, 'fixtures-390-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('Logs says "fixture <name>" (a link to it) for a call a fixture answered and "simulated" for another', async () => {
    await ask(client, 'nothing scripted for this one');
    const entries = ((await admin('GET', '/journal')).body as { items: { id: number }[] }).items;
    const details = await Promise.all(
      entries.map(async (entry) => (await admin('GET', `/journal/${entry.id}`)).body as { id: number; fixture?: string | null }),
    );
    const simulated = details[0]!; // the newest call
    assert.equal(simulated.fixture ?? undefined, undefined);
    const fileCall = details.find((entry) => entry.fixture === 'file-greeting')!;
    await go('Logs');
    const openEntry = async (id: number) => {
      await page.locator(`tr[data-entry-id="${id}"]`).getByRole('button').first().click();
      await page.locator(`tr.selected[data-entry-id="${id}"]`).waitFor();
      await page.getByTestId('log-detail').waitFor();
    };
    // The table says it too, under each request.
    assert.equal(await page.locator(`tr[data-entry-id="${simulated.id}"]`).getByTestId('answer-source').textContent(), 'simulated');
    assert.equal(
      await page.locator(`tr[data-entry-id="${fileCall.id}"]`).getByTestId('answer-source').textContent(),
      'fixture file-greeting',
    );
    await openEntry(simulated.id);
    await page
      .getByTestId('log-source')
      .filter({ hasText: /^simulated$/ })
      .waitFor();

    await openEntry(fileCall.id);
    const source = page.getByTestId('log-source');
    await source.filter({ hasText: /^fixture file-greeting$/ }).waitFor();
    await screenshot(page, 'logs-fixture-source');
    await source.getByRole('button', { name: 'fixture file-greeting' }).click();
    const highlighted = page.locator('tr.selected[data-fixture-id]');
    await highlighted.waitFor();
    assert.match((await highlighted.textContent())!, /file-greeting/);
  });

  test('Logs filters by test id, and the detail shows the test and request ids', async () => {
    await go('Logs');
    await page.getByLabel('Test id', { exact: true }).fill('checkout');
    const rows = page.getByRole('table', { name: 'API calls' }).locator('tbody tr');
    // The rows of other tests leave once the filtered page arrives.
    await rows.filter({ hasNotText: 'checkout' }).first().waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    assert.match((await rows.first().textContent())!, /fixture runtime-weather/);
    assert.match((await rows.first().textContent())!, /test id checkout/);
    await rows.first().getByRole('button').first().click();
    await page.getByTestId('log-test-id').filter({ hasText: 'checkout' }).waitFor();
    const requestId = (await page.getByTestId('log-request-id').textContent())!;
    const listed = (await admin('GET', `/journal?request_id=${encodeURIComponent(requestId)}`)).body as { items: { test_id: string }[] };
    assert.deepEqual(
      listed.items.map((item) => item.test_id),
      ['checkout'],
      'the request id shown is the call’s',
    );
  });
});

// End-to-end test of the Logs page's call figures, body search, time range, assembled stream text and HAR/JSON export, in Chromium with the official OpenAI SDK as the client.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { assertFitsWidth, browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Logs export e2e tests: ${skip}`);

describe('console Logs figures, search and export', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let client: OpenAI;

  const rows = () => page.getByRole('table', { name: 'API calls' }).locator('tbody tr');
  /** Waits until the table shows from `min` to `max` rows. */
  const rowsUntil = (min: number, max = Number.MAX_SAFE_INTEGER) =>
    page.waitForFunction(
      ([low, high]) => {
        const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } };
        const count = document.querySelectorAll('table[aria-label="API calls"] tbody tr').length;
        return count >= low! && count <= high!;
      },
      [min, max],
    );

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none']);
    const token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    client = new OpenAI({ apiKey: token, baseURL: `${server.url}/v1`, maxRetries: 0 });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByTestId('base-url').waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Logs', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a row shows its token name, billed tokens and cost; a stream its time to first token and, opened, its assembled text', async () => {
    const answer = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'count my tokens please' }],
    });
    const row = rows().filter({ hasText: 'POST /v1/chat/completions' }).first();
    await row.getByTestId('call-figures').waitFor();
    const figures = (await row.getByTestId('call-figures').textContent())!;
    assert.match(figures, /token first token/);
    assert.match(figures, new RegExp(`${answer.usage!.prompt_tokens} in / ${answer.usage!.completion_tokens} out tokens`));
    assert.match(figures, /cost \d+\.\d{6}/);

    const stream = await client.chat.completions.create(
      { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'stream a story to assemble' }] },
      { headers: { 'x-gatehouse-pace': '200' } },
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    const streamed = rows().filter({ hasText: 'stream' }).first();
    await streamed.getByTestId('call-figures').filter({ hasText: 'first token after' }).waitFor();
    assert.match((await streamed.getByTestId('call-figures').textContent())!, /first token after \d+\.\d{3} s/);
    await streamed.getByRole('button').first().click();
    const assembled = page.getByTestId('assembled-text');
    await assembled.waitFor();
    assert.equal(await assembled.textContent(), text, 'the detail shows the text the SDK read');
    assert.match((await page.getByTestId('log-usage').textContent())!, /in \/ \d+ out tokens/);
    await screenshot(page, 'logs-figures');
    for (const width of [1280, 800]) await assertFitsWidth(page, width, 'the Logs page with its new filters and an open call');
    await screenshot(page, 'logs-figures-800');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
  });

  test('a search finds a word inside a body, and a time range in the past shows nothing', async () => {
    await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'the zebra-marmalade sentence' }] });
    await rowsUntil(3);
    const before = await rows().count();
    await page.getByLabel('Search bodies').fill('ZEBRA-marmalade');
    await rowsUntil(1, 1);
    await page.getByLabel('Search bodies').fill('');
    await rowsUntil(before, before);

    await page.getByLabel('To', { exact: true }).fill('2001-01-01T00:00');
    await page.getByText('Nothing matches').waitFor();
    await page.getByLabel('To', { exact: true }).fill('');
    await page.getByLabel('From', { exact: true }).fill('2001-01-01T00:00');
    await rowsUntil(before, before);
    await page.getByLabel('From', { exact: true }).fill('');
  });

  test('the shown calls download as HAR and as JSON, bodies included', async () => {
    await page.getByLabel('Search bodies').fill('zebra');
    await rowsUntil(1, 1);
    const [har] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export HAR' }).click()]);
    assert.match(har.suggestedFilename(), /^gatehouse-calls-.*\.har$/);
    const log = JSON.parse(readFileSync((await har.path())!, 'utf8')).log;
    assert.equal(log.version, '1.2');
    assert.equal(log.entries.length, 1, 'only the shown call');
    assert.equal(log.entries[0].request.method, 'POST');
    assert.equal(log.entries[0].request.url, `${server.url}/v1/chat/completions`);
    assert.match(log.entries[0].request.postData.text, /zebra-marmalade/);
    assert.equal(log.entries[0].response.status, 200);
    assert.doesNotMatch(JSON.stringify(log), /sk-gh-[A-Za-z0-9]{40}/, 'no secret in the export');

    await page.getByLabel('Search bodies').fill('');
    await rowsUntil(3);
    const shown = await rows().count();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const entries = JSON.parse(readFileSync((await json.path())!, 'utf8'));
    assert.equal(entries.length, shown);
    assert.ok(
      entries.every((entry: { response: unknown }) => entry.response),
      'each with its bodies',
    );
  });
});

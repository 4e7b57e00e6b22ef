// End-to-end tests of the overview's usage dashboard, Connect your tool, the Models page and the keyboard shortcuts, in Debian's Chromium against `gatehouse serve`; screenshots EN/ZH × light/dark × 1280/800 px.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the dashboard e2e tests: ${skip}`);

describe('usage dashboard, connect, models and shortcuts', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let token: string;

  /** One chat call with the first token; `model` may carry a fault suffix. */
  const chat = (model: string) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there' }] }),
    });

  /** Presses `g` then `key`: the shortcut that opens a page, the same in every language. */
  const go = async (key: string) => {
    await page.keyboard.press('g');
    await page.keyboard.press(key);
  };

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none', '--model-aliases', 'team-chat=sim-chat']);
    token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    assert.equal((await chat('sim-chat')).status, 200);
    assert.equal((await chat('sim-chat')).status, 200);
    assert.equal((await chat('sim-chat-fault-429')).status, 429);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the overview shows requests, errors, tokens and spend of the calls made, by model, token and account', async () => {
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage.getByTestId('usage-requests').getByText('3').waitFor();
    assert.match((await usage.getByTestId('usage-errors').textContent()) ?? '', /^1 \(33\.3 %\)$/);
    assert.match((await usage.getByTestId('usage-spend').textContent()) ?? '', /^0\.\d{4,6} USD$/);
    const byModel = usage.getByTestId('usage-by-model');
    const chatRow = byModel.getByRole('row').filter({ hasText: /^sim-chat\d/ });
    assert.deepEqual(
      await chatRow
        .getByRole('cell')
        .allTextContents()
        .then((cells) => cells.slice(0, 3)),
      ['sim-chat', '2', '0'],
    );
    const faultRow = byModel.getByRole('row').filter({ hasText: 'sim-chat-fault-429' });
    assert.equal((await faultRow.getByRole('cell').nth(2).textContent())?.trim(), '1');
    await usage.getByTestId('usage-by-token').getByText('local / first token').waitFor();
    await usage.getByTestId('usage-by-account').getByText('local', { exact: true }).waitFor();
    // The charts say what they show to a screen reader.
    await usage.getByRole('img', { name: /Requests per day: 3 in the range, 1 of them errors/ }).waitFor();
    await usage.getByRole('img', { name: /Requests by duration: p50 ≤/ }).waitFor();
    // A new call shows after a reload of the dashboard.
    assert.equal((await chat('sim-echo')).status, 200);
    await usage.getByRole('tab', { name: '30 days' }).click();
    await usage.getByTestId('usage-requests').getByText('4').waitFor();
  });

  test('Connect your tool: setups use $TOKEN until a secret is pasted, and the shell exports work as printed', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Connect', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Connect' }).waitFor();
    await page.getByRole('tab', { name: 'Claude Code' }).click();
    const setup = page.getByTestId('setup');
    assert.equal(
      await setup.textContent(),
      [
        `export ANTHROPIC_BASE_URL=${server.url}`,
        'export ANTHROPIC_AUTH_TOKEN="$TOKEN"',
        // No channel serves a model: the first chat model of the Models page's list (never a hard-coded, retiring name).
        'export ANTHROPIC_MODEL=sim-chat',
        'claude',
      ].join('\n'),
    );
    await page.getByRole('tab', { name: 'Codex' }).click();
    assert.match((await setup.textContent()) ?? '', new RegExp(`base_url = "${server.url}/v1"[\\s\\S]*wire_api = "responses"`));
    await page.getByRole('tab', { name: 'Gemini CLI' }).click();
    assert.match((await setup.textContent()) ?? '', new RegExp(`GOOGLE_GEMINI_BASE_URL=${server.url}\\nexport GEMINI_API_KEY="\\$TOKEN"`));
    await page.getByRole('tab', { name: 'OpenAI · Python' }).click();
    assert.match((await setup.textContent()) ?? '', /api_key=os\.environ\["TOKEN"\]/);

    await page.getByLabel('Or paste a secret').fill(token);
    await page.getByRole('tab', { name: 'Shell exports' }).click();
    const exports = (await setup.textContent()) ?? '';
    assert.ok(exports.includes(`export TOKEN='${token}'`));
    // The exports, run as printed, reach the gateway through each family's variables.
    const run = spawnSync(
      'bash',
      [
        '-c',
        `${exports}\ncurl -s -o /dev/null -w '%{http_code} ' "$OPENAI_BASE_URL/models" -H "Authorization: Bearer $OPENAI_API_KEY"` +
          `\ncurl -s -o /dev/null -w '%{http_code} ' "$ANTHROPIC_BASE_URL/v1/models" -H "Authorization: Bearer $ANTHROPIC_AUTH_TOKEN"` +
          `\ncurl -s -o /dev/null -w '%{http_code}' "$GOOGLE_GEMINI_BASE_URL/v1beta/models" -H "x-goog-api-key: $GEMINI_API_KEY"`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(run.stdout, '200 200 200', run.stderr);
  });

  test('the Models page lists every model with its price and server; the Playground offers chat models and takes any name', async () => {
    await go('m');
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    const row = (id: string) => page.getByTestId('model-row').filter({ has: page.locator('code', { hasText: new RegExp(`^${id}$`) }) });
    await row('sim-chat').getByText('1.0000 USD per 1M input tokens · 3.0000 USD per 1M output tokens').waitFor();
    await row('sim-chat').getByText('Simulator').waitFor();
    await row('team-chat').getByText('alias of sim-chat').waitFor();
    await row('sim-image')
      .getByText(/per image: 0\.0160 USD/)
      .waitFor();
    // `/` focuses the search field.
    await page.locator('body').click();
    await page.keyboard.press('/');
    await page.keyboard.type('embed');
    assert.equal(await page.getByTestId('model-row').count(), 1);
    await row('sim-embed').waitFor();

    // Shortcuts leave a field being typed in alone: leave it first.
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await go('p');
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await page.getByRole('button', { name: 'Use a token of this account' }).click();
    await page.locator('#playground-chat-models option[value="sim-chat"]').waitFor({ state: 'attached' });
    const options = await page
      .locator('#playground-chat-models option')
      .evaluateAll((items) => items.map((item) => (item as unknown as { value: string }).value));
    assert.ok(options.includes('sim-chat') && options.includes('team-chat'), options.join());
    assert.ok(!options.includes('sim-embed') && !options.includes('sim-image'), options.join());
    await page.getByLabel('Model', { exact: true }).fill('gpt-4o');
    assert.equal(await page.getByLabel('Model', { exact: true }).inputValue(), 'gpt-4o');
  });

  test('keyboard: g then a key opens pages, b copies the base URL, ? lists the shortcuts and Escape closes the list', async () => {
    await page.locator('body').click();
    await go('o');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.keyboard.press('b');
    await page
      .getByRole('status')
      .filter({ hasText: `Copied ${server.url}` })
      .waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), server.url);
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.getByText('Open Models').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await go('c');
    await page.getByRole('heading', { level: 1, name: 'Connect' }).waitFor();
  });

  test('screenshots of the dashboard, Connect and Models in English and Chinese, light and dark, at 1280 and 800 px', async () => {
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 800 });
      for (const language of ['en', 'zh']) {
        for (const theme of ['light', 'dark']) {
          await page.evaluate(`localStorage.setItem('gatehouse.prefs', '${JSON.stringify({ theme, language })}')`);
          await page.reload();
          await page.locator('nav').waitFor();
          assert.equal(await page.evaluate('document.documentElement.dataset.theme'), theme);
          await page.locator('body').click({ position: { x: 1, y: 1 } });
          for (const [key, name] of [
            ['o', 'overview'],
            ['c', 'connect'],
            ['m', 'models'],
          ] as const) {
            await go(key);
            await page.locator(`.page.${name}`).waitFor();
            if (name === 'overview') await page.getByTestId('usage-requests').waitFor();
            if (name === 'models') await page.getByTestId('model-row').first().waitFor();
            await screenshot(page, `${name}-${language}-${theme}-${width}`);
          }
        }
      }
    }
  });
});

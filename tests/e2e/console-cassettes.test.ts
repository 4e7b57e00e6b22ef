// End-to-end test of the console's Cassettes page and the Logs "replayed from …", in Debian's Chromium against a gateway replaying a folder another one
// recorded: the folder's cassettes with their time, origin (the simulator, a relay channel), protocol and model, which one this run replayed, a damaged
// one refused, the filters, the Logs link to the cassette, and the page in Chinese.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { CassetteStore } from '../../electron/gateway/providers/replay/store.ts';
import { consoleUrlOf } from '../../shared/console-address.ts';
import { assertFitsWidth, browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { chatDraft } from '../helpers/cassettes.ts';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { eventually } from '../helpers/eventually.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Cassettes e2e tests: ${skip}`);

describe('console Cassettes page and the Logs "replayed from"', { skip }, () => {
  const dirs = tempDirs();
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let replayed: string;
  let unused: string;
  /** Recorded, and replayed only while the page is open. */
  let later: string;
  const damaged = 'gpt-4o-cut-short.0123456789abcdef.json';

  const go = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  const table = () => page.getByRole('table', { name: 'Recorded cassettes' });
  const rowOf = (file: string) => page.locator(`tr[data-cassette="${file}"]`);
  const ask = (url: string, token: string, content: string) =>
    new OpenAI({ apiKey: token, baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content }],
    });

  before(async () => {
    await ensureBuilt();
    const dir = dirs.fresh();
    // One call recorded by a real gateway (its simulated answer), one exchange of a relay channel filed by the store, one damaged file.
    const recording = await startGateway({ record: { dir, simulated: true } });
    await ask(recording.url, recording.token, 'Say hello in three words');
    await ask(recording.url, recording.token, 'Count to three');
    await recording.stop();
    const recorded = await eventually(() => {
      const found = readdirSync(dir).filter((name) => name.endsWith('.json'));
      return found.length === 2 && found;
    }, 'the recorded cassettes');
    replayed = recorded.find((name) => name.includes('hello'))!;
    later = recorded.find((name) => name.includes('count'))!;
    unused = (await new CassetteStore(dir).save(chatDraft('Embed this', '[0.5]', { channel: 'openai-main' }), 'Embed this')).file;
    writeFileSync(path.join(dir, damaged), '{"format": 1, "kind": "http", "recording": {');
    gw = await startGateway({ replay: { dir } });
    await ask(gw.url, gw.token, 'Say hello in three words');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(consoleUrlOf(gw.url, gw.gateway.adminToken));
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await gw?.stop();
  });

  test('lists each cassette with when, where from, protocol and model, which one this run replayed, and a damaged one refused', async () => {
    // `g` then `r` (recordings) opens the page.
    await page.keyboard.press('g');
    await page.keyboard.press('r');
    await page.getByRole('heading', { level: 1, name: 'Cassettes' }).waitFor();
    await rowOf(replayed).waitFor();
    assert.match(
      (await page.getByTestId('cassette-folder').textContent())!,
      /Replaying from .*Replay run started .*: 1 cassette\(s\) used so far/,
    );
    const hit = (await rowOf(replayed).textContent())!;
    assert.match(hit, /from the simulator/);
    assert.match(hit, /POST \/v1\/chat\/completions/);
    assert.match(hit, /openai · sim-chat · 200/);
    assert.equal(await rowOf(replayed).getByTestId('cassette-use').textContent(), 'replayed');
    const other = (await rowOf(unused).textContent())!;
    assert.match(other, /from channel openai-main/);
    assert.match(other, /openai · gpt-4o · 200/);
    assert.match(other, /20 Nov 2026, 10:00:00/);
    assert.equal(await rowOf(unused).getByTestId('cassette-use').textContent(), 'not used');
    assert.match((await rowOf(damaged).textContent())!, /Refused: .*cut-short.*is not JSON/);
    await screenshot(page, 'cassettes-1280');

    // Only those the run did not use, then a search.
    await page.getByLabel('This run', { exact: true }).selectOption('unused');
    await rowOf(replayed).waitFor({ state: 'detached' });
    assert.equal(await rowOf(unused).count(), 1);
    await page.getByLabel('This run', { exact: true }).selectOption('');
    // The page keeps the unused ones (the replayed one not among them) until the full list is in: wait for it (bounded by
    // Playwright's timeout), or the search's "replayed one gone" below would pass on that earlier list and count its rows.
    await rowOf(replayed).waitFor();
    await page.getByLabel('Search').fill('embed-this');
    await rowOf(replayed).waitFor({ state: 'detached' });
    assert.equal(await table().locator('tbody tr').count(), 1);
    await page.getByLabel('Search').fill('');
    await rowOf(replayed).waitFor();
  });

  test('"This run" follows a call replayed while the page is open, without a reload', async () => {
    await rowOf(later)
      .getByTestId('cassette-use')
      .filter({ hasText: /^not used$/ })
      .waitFor();
    await ask(gw.url, gw.token, 'Count to three');
    await rowOf(later)
      .getByTestId('cassette-use')
      .filter({ hasText: /^replayed$/ })
      .waitFor();
    assert.match((await page.getByTestId('cassette-folder').textContent())!, /2 cassette\(s\) used so far/);
  });

  test('fits 390, 800 and 1280 px windows', async () => {
    for (const width of [390, 800, 1280]) await assertFitsWidth(page, width, `the Cassettes page at ${width} px`);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('Logs says "replayed from <file>", a link to the cassette', async () => {
    await go('Logs');
    const source = page.getByRole('table', { name: 'API calls' }).locator('tbody tr').getByTestId('answer-source');
    const link = source.filter({ hasText: `replayed from ${replayed}` });
    await link.waitFor();
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Cassettes' }).waitFor();
    await page.locator(`tr.selected[data-cassette="${replayed}"]`).waitFor();
    assert.equal(await rowOf(unused).count(), 0, 'the list is narrowed to that cassette');
  });

  test('in Chinese', async () => {
    await go('Settings');
    await page.getByLabel('Language').selectOption('zh');
    await page.getByRole('navigation').getByRole('link', { name: '录制带', exact: true }).click();
    await page.getByLabel('搜索').fill('');
    await rowOf(replayed).waitFor();
    assert.equal(await rowOf(replayed).getByTestId('cassette-use').textContent(), '已回放');
    assert.match((await rowOf(unused).textContent())!, /来自渠道 openai-main/);
    assert.match((await page.getByTestId('cassette-folder').textContent())!, /正在从 .* 回放。/);
    await screenshot(page, 'cassettes-zh');
    await go('设置');
    await page.getByLabel('语言').selectOption('en');
  });
});

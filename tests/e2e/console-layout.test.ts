// End-to-end tests of the console's layout in Chromium at 390, 800, 1024 and 1280 px, English and Chinese: no page scrolls sideways, the navigation collapses, nothing is clipped or squeezed, an opened call is in view.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, firstTokenOf, privateServeArgs, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the console layout e2e tests: ${skip}`);

const WIDTHS = [390, 800, 1024, 1280] as const;
/** From this width on the navigation is a sidebar; under it, a menu behind a button (the console’s breakpoint). */
const NARROW = 800;
const PAGES = ['overview', 'connect', 'models', 'assets', 'tasks3d', 'playground', 'tokens', 'channels', 'fixtures', 'logs', 'settings'];
/** Ids and names long enough to show whether a narrow table wraps them one character a line. */
const LONG_GROUP = 'SpringCampaignSpokespeople 春季活动代言人肖像';

describe('console layout at every width', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let token: string;

  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
  /** Sets the console's language and theme as the Settings page keeps them, and reloads. */
  const prefs = async (language: 'en' | 'zh', theme: 'light' | 'dark') => {
    await page.evaluate(`localStorage.setItem('gatehouse.prefs', '${JSON.stringify({ theme, language })}')`);
    await page.reload();
    await page.locator('main h1').waitFor();
  };
  const show = async (name: string) => {
    await page.evaluate(`window.location.hash = '#/${name}'`);
    await page.locator(`.page`).first().waitFor();
    await page.waitForFunction(`document.title.length > 0 && window.location.hash === '#/${name}'`);
  };
  /**
   * The texts in the cells matched by `selector` that wrap about one character a line: a text of three lines or more with
   * fewer than three characters on each.
   */
  const squeezedCells = (selector: string) =>
    page.locator(selector).evaluateAll((cells: any[]) => {
      const win = globalThis as any;
      const squeezed: string[] = [];
      for (const cell of cells) {
        const walker = win.document.createTreeWalker(cell, win.NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = (node.textContent ?? '').trim();
          const range = win.document.createRange();
          range.selectNodeContents(node);
          const lines = new Set([...range.getClientRects()].map((rect: any) => Math.round(rect.top))).size;
          if (lines >= 3 && text.length / lines < 3) squeezed.push(text);
        }
      }
      return squeezed;
    });
  /** How far the page scrolls sideways: the scrolling element's width past the window's. */
  const sidewaysOverflow = () => page.evaluate('document.scrollingElement.scrollWidth - window.innerWidth') as Promise<number>;

  before(async () => {
    await ensureBuilt();
    server = await serveCli(privateServeArgs(dataDir));
    token = firstTokenOf(server);
    const group = (await api('/v1/portrait/groups', { name: LONG_GROUP, description: 'portraits for the layout test' })).data;
    await api('/v1/portrait/groups', { name: 'Second group', description: 'the card below' });
    await api('/v1/portrait/assets', {
      group_id: group.group_id,
      url: 'https://cdn.example.com/layout.png',
      asset_type: 'Image',
      name: 'layout',
    });
    for (const model of ['gpt-4o-mini', 'claude-sonnet-4-5'])
      await api('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Hello from the layout test.' }] });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(server));
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('no page scrolls sideways nor squeezes a table cell to a character a line at 390, 800, 1024 and 1280 px, in English (light) and Chinese (dark)', async () => {
    const problems: string[] = [];
    for (const [language, theme] of [
      ['en', 'light'],
      ['zh', 'dark'],
    ] as const) {
      await prefs(language, theme);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const name of PAGES) {
          await show(name);
          if (name === 'overview') await page.getByTestId('usage-requests').waitFor();
          if (name === 'logs') await page.locator('.log-table tbody tr').first().waitFor();
          if (name === 'assets') await page.locator('.group-list li').first().waitFor();
          const overflow = await sidewaysOverflow();
          if (overflow > 0) problems.push(`${name} (${language}) at ${width} px scrolls ${overflow} px sideways`);
          for (const text of await squeezedCells('.table th, .table td'))
            problems.push(`${name} (${language}) at ${width} px wraps a cell about one character a line: ${text}`);
          if (width === 390) await screenshot(page, `layout-${name}-${language}-${width}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('under 800 px the navigation is a menu: a button opens it (also by keyboard), choosing a page or Escape closes it', async () => {
    await prefs('en', 'light');
    await page.setViewportSize({ width: 390, height: 800 });
    await show('overview');
    const menu = page.getByRole('button', { name: 'Menu' });
    const tokensLink = page.getByRole('navigation').getByRole('link', { name: 'Tokens', exact: true });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await tokensLink.isVisible(), false, 'the page links are hidden while the menu is closed');
    const mainLeft = await page.locator('main').evaluate((main: any) => main.getBoundingClientRect().left);
    assert.ok(mainLeft < 20, `the page starts at the window's left edge, not beside a sidebar (left ${mainLeft} px)`);
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await tokensLink.click();
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    await tokensLink.waitFor({ state: 'hidden' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false', 'choosing a page closes the menu');
    await menu.focus();
    await page.keyboard.press('Enter');
    await tokensLink.waitFor();
    await page.keyboard.press('Escape');
    await tokensLink.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: NARROW, height: 800 });
    await tokensLink.waitFor();
    assert.equal(await menu.isVisible(), false, 'a wider window shows the navigation itself, with no menu button');
  });

  test('each group card’s Delete button is not covered by the next card at any width, in English and Chinese', async () => {
    for (const language of ['en', 'zh'] as const) {
      await prefs(language, 'light');
      await show('assets');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const name of [LONG_GROUP, 'Second group']) {
          const button = page.locator('.group-row', { hasText: name }).locator('button.danger');
          await button.scrollIntoViewIfNeeded();
          const hit = await button.evaluate((element: any) => {
            const box = element.getBoundingClientRect();
            const top = (globalThis as any).document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return top === element || element.contains(top);
          });
          if (name === 'Second group') await screenshot(page, `layout-groups-${language}-${width}`);
          assert.ok(
            hit,
            `the Delete button of "${name}" at ${width} px in ${language} is inside its card and what a click at its centre reaches`,
          );
        }
      }
    }
  });

  test('the Overview usage tables keep their cells wider than a character, in English and Chinese', async () => {
    for (const language of ['en', 'zh'] as const) {
      await prefs(language, 'light');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await show('overview');
        await page.locator('.breakdown table tbody tr').first().waitFor();
        const squeezed = await squeezedCells('.breakdown th, .breakdown td');
        assert.deepEqual(squeezed, [], `cells wrapped over more than two lines at ${width} px in ${language}`);
      }
    }
  });

  test('at 1024 px and less an opened call’s details are in view, not only their heading', async () => {
    await prefs('en', 'light');
    for (const width of [390, 800, 1024]) {
      await page.setViewportSize({ width, height: 700 });
      await show('logs');
      await page.evaluate('window.scrollTo(0, 0)');
      await page.locator('.log-table tbody tr').first().click();
      const detail = page.locator('.detail-panel');
      await detail.locator('.facts').first().waitFor();
      // Scrolling may go on a moment (smooth or not): wait until it settles.
      await page.waitForFunction(
        `new Promise((resolve) => { const y = window.scrollY; requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === y))); })`,
      );
      const [top, bottom] = await detail.evaluate((element: any) => {
        const box = element.getBoundingClientRect();
        return [box.top, Math.min(box.bottom, (globalThis as any).innerHeight)];
      });
      assert.ok(top > -1 && top < 700, `the details start inside the window at ${width} px (top ${top})`);
      assert.ok(bottom - top > 250, `at least 250 px of the details show at ${width} px (${bottom - top} px)`);
      await page.getByRole('button', { name: 'Close', exact: true }).click();
    }
  });

  test('money is written one way on every page that shows some: the amount with 4 to 6 decimals, then USD', async () => {
    await prefs('en', 'light');
    await page.setViewportSize({ width: 1280, height: 800 });
    const ready: Record<string, string> = {
      overview: '[data-testid="usage-spend"]',
      logs: '.log-table tbody tr',
      tokens: 'table[aria-label="Tokens"] tbody tr',
      models: '[data-testid="model-row"]',
      settings: '.prices-table tbody tr',
    };
    for (const [name, selector] of Object.entries(ready)) {
      await show(name);
      await page.locator(selector).first().waitFor();
      const text = (await page.evaluate('document.body.innerText')) as string;
      const amounts = text.match(/\d[\d.,]*\s*USD|USD\s*\d[\d.,]*/g) ?? [];
      assert.ok(amounts.length > 0, `the ${name} page shows money`);
      for (const amount of amounts) assert.match(amount, /^\d+\.\d{4,6} USD$/, `on the ${name} page`);
      for (const cost of text.match(/cost \S+(?: \S+)?/g) ?? []) assert.match(cost, /^cost \d+\.\d{4,6} USD$/, `on the ${name} page`);
    }
  });

  test('in Chinese a refusal the gateway writes in English is shown in Chinese', async () => {
    await prefs('zh', 'light');
    await page.setViewportSize({ width: 1280, height: 800 });
    await show('settings');
    const form = page.getByRole('form', { name: '设置价格' });
    await form.getByLabel('模型', { exact: true }).fill('sim-echo');
    await form.getByLabel('输入 / 百万 token').fill('2000000');
    await form.getByLabel('输出 / 百万 token').fill('4');
    await form.getByRole('button', { name: '设置价格' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    assert.equal(
      await refusal.textContent(),
      'input_per_mtok 必须是 0 到 1000000 之间的美元金额，最多 4 位小数；收到的是 2000000',
      'the gateway said "input_per_mtok must be a number of USD from 0 to 1000000 with at most 4 decimals; got 2000000"',
    );
  });
});

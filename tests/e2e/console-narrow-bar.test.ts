// End-to-end test in Chromium: under 800 px the navigation bar keeps its own height on a page shorter than the window (Playground, 3D tasks), the page right below it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, screenshot } from '../helpers/browser.ts';
import { openConsole, setConsolePrefs, type ConsoleSession } from '../helpers/console-session.ts';
import { tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the narrow navigation bar e2e test: ${skip}`);

/** Taller than the bar's one row (brand, live dot, Menu button) could ever need with its links closed. */
const BAR_MAX_PX = 100;

describe('the navigation bar of a narrow window', { skip }, () => {
  const dirs = tempDirs();
  let session: ConsoleSession;
  let page: Page;

  before(async () => {
    session = await openConsole(dirs.fresh(), { width: 390, height: 900 });
    page = session.page;
  });

  after(async () => {
    await session?.close();
    dirs.removeAll();
  });

  test('on short pages at 390 px the bar is one row high and the page heading is right below it, in English and Chinese', async () => {
    const problems: string[] = [];
    for (const language of ['en', 'zh'] as const) {
      await setConsolePrefs(page, { language, theme: 'dark' });
      for (const name of ['playground', 'tasks3d']) {
        await page.evaluate(`window.location.hash = '#/${name}'`);
        await page.waitForFunction(`window.location.hash === '#/${name}' && document.querySelector('main h1') !== null`);
        const [bar, heading] = await page.evaluate(() => {
          const doc = (globalThis as any).document;
          return [doc.querySelector('.sidebar').getBoundingClientRect().height, doc.querySelector('main h1').getBoundingClientRect().top];
        });
        await screenshot(page, `narrow-bar-${name}-${language}`);
        if (bar > BAR_MAX_PX) problems.push(`${name} (${language}): the bar is ${Math.round(bar)} px high`);
        if (heading > BAR_MAX_PX + 40) problems.push(`${name} (${language}): the heading starts ${Math.round(heading)} px down`);
      }
    }
    assert.deepEqual(problems, []);
  });
});

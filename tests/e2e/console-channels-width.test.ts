// End-to-end test in Chromium: on the Channels page at 800, 1024 and 1280 px, in English and Chinese, a channel's buttons are in view, not hidden past the edge of the table's scrolling region, and the table needs no sideways scrolling (below 1100 px each channel is a block of labelled lines).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, screenshot } from '../helpers/browser.ts';
import { openConsole, setConsolePrefs, type ConsoleSession } from '../helpers/console-session.ts';
import { tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the channels width e2e test: ${skip}`);

describe('the Channels table at window widths', { skip }, () => {
  const dirs = tempDirs();
  let session: ConsoleSession;
  let page: Page;

  before(async () => {
    session = await openConsole(dirs.fresh(), { width: 1280, height: 900 }, { secrets: 'file' });
    page = session.page;
    await page.getByRole('navigation').getByRole('link', { name: 'Channels', exact: true }).click();
    // A channel as a user adds it: from a preset, with a key.
    const form = page.getByRole('form', { name: 'Add a channel' });
    await form.getByLabel('Provider preset').selectOption({ label: 'OpenRouter' });
    await form.getByLabel('Key').fill('sk-or-width-test-key-0000');
    await form.getByRole('button', { name: 'Add a channel' }).click();
    await page.locator('.channels-page tbody tr').first().waitFor();
  });

  after(async () => {
    await session?.close();
    dirs.removeAll();
  });

  test('every button of a channel row lies inside the visible part of the table, and a click at its centre reaches it', async () => {
    const hidden: string[] = [];
    for (const language of ['en', 'zh'] as const) {
      await setConsolePrefs(page, { language, theme: 'light' });
      await page.locator('.channels-page tbody tr').first().waitFor();
      for (const width of [800, 1024, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        const row = page.locator('.channels-page tbody tr').first();
        await row.scrollIntoViewIfNeeded();
        for (const button of await row.getByRole('button').all()) {
          const [label, inView] = await button.evaluate((element: any) => {
            const doc = (globalThis as any).document;
            const region = element.closest('.table-scroll').getBoundingClientRect();
            const box = element.getBoundingClientRect();
            const inside = box.left >= region.left && box.right <= region.right;
            const top = doc.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return [element.textContent.trim(), inside && (top === element || element.contains(top))];
          });
          if (!inView) hidden.push(`"${label}" at ${width} px (${language})`);
        }
        const sideways = await page
          .locator('.channels-page .table-scroll')
          .evaluate((region: any) => region.scrollWidth - region.clientWidth);
        if (sideways > 0) hidden.push(`the table scrolls ${sideways} px sideways at ${width} px (${language})`);
        await screenshot(page, `channels-width-${language}-${width}`);
      }
    }
    assert.deepEqual(hidden, [], 'buttons hidden past the edge of the channels table');
  });
});

// Test helper: a real `gatehouse serve` on a temporary data dir and its console open in Chromium, and the console's saved language and theme.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { ensureBuilt } from './build.ts';
import { consoleUrlOf, privateServeArgs, serveCli, type ServeProcess } from './cli.ts';

export interface ConsoleSession {
  server: ServeProcess;
  browser: Browser;
  page: Page;
  /** Closes the browser and stops the server. */
  close(): Promise<void>;
}

/**
 * Builds the console if needed, serves `dataDir` (`secrets` as `privateServeArgs` takes it) and opens its console at
 * `viewport`; page errors are printed. Resolves once the console's first page heading is shown.
 */
export async function openConsole(
  dataDir: string,
  viewport: { width: number; height: number },
  serve: { secrets?: 'none' | 'file' } = {},
): Promise<ConsoleSession> {
  await ensureBuilt();
  const server = await serveCli(privateServeArgs(dataDir, serve));
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  await page.goto(await consoleUrlOf(server));
  await page.locator('main h1').waitFor();
  return {
    server,
    browser,
    page,
    close: async () => {
      await browser.close();
      await server.stop();
    },
  };
}

/** Saves the console's language and theme as the Settings page keeps them, reloads, and waits for the page heading. */
export async function setConsolePrefs(page: Page, prefs: { language: 'en' | 'zh'; theme: 'light' | 'dark' }): Promise<void> {
  await page.evaluate(`localStorage.setItem('gatehouse.prefs', '${JSON.stringify({ theme: prefs.theme, language: prefs.language })}')`);
  await page.reload();
  await page.locator('main h1').waitFor();
}

// Test helper: Debian's Chromium through playwright-core (never a downloaded browser), or the reason it cannot run here.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './build.ts';

export const CHROMIUM = '/usr/bin/chromium';
/** Where screenshots of each page are kept (gitignored). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** Why browser tests cannot run on this machine, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (install it with: apt-get install -y chromium)`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot as test-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Asserts that the page needs no sideways scrolling at `width` px: everything fits the window's width. */
export async function assertFitsWidth(page: Page, width: number, what: string): Promise<void> {
  await page.setViewportSize({ width, height: page.viewportSize()?.height ?? 800 });
  const overflow = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
      .documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  if (overflow > 0) throw new Error(`${what} is ${overflow} px wider than a ${width} px window`);
}

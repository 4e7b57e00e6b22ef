// Playwright `_electron` smoke test of the real desktop app; it runs wherever an Electron binary is installed and says why it skips otherwise.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { _electron } from 'playwright-core';
import { screenshot } from '../helpers/browser.ts';
import { ensureBuilt, ROOT } from '../helpers/build.ts';

/** The Electron binary's path, or why there is none (its download is lazy and may have been impossible here). */
function electronBinary(): { path: string } | { reason: string } {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    if (typeof binary === 'string' && existsSync(binary)) return { path: binary };
    return { reason: `the electron package names no binary that exists (${String(binary)})` };
  } catch (error) {
    return { reason: `no Electron binary is installed (${(error as Error).message.split('\n')[0]}); run \`npx install-electron\` or reinstall electron where its download works` };
  }
}

const binary = electronBinary();
const skip = 'reason' in binary ? binary.reason : undefined;
if (skip) console.log(`# skipping the Electron smoke test: ${skip}`);

test('the desktop app starts, serves its console in a sandboxed window and hands over the connection', { skip }, async () => {
  if ('reason' in binary) return;
  await ensureBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-electron-'));
  const app = await _electron.launch({
    executablePath: binary.path,
    // --no-sandbox only lifts Chromium's OS-level sandbox, which CI containers running as root cannot provide.
    args: [ROOT, '--no-sandbox'],
    env: { ...process.env, GATEHOUSE_PORT: '0', GATEHOUSE_DATA_DIR: dataDir, ELECTRON_RENDERER_URL: '' },
  });
  try {
    const window = await app.firstWindow();
    await window.getByTestId('base-url').waitFor();
    assert.match(window.url(), /^http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    assert.equal(await window.evaluate('window.gatehouse && window.gatehouse.host'), 'electron');
    assert.equal(await window.evaluate('typeof require'), 'undefined', 'no Node in the page');
    await screenshot(window, 'desktop-overview');
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

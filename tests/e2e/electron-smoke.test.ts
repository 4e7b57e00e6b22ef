// Playwright `_electron` smoke test of the real desktop app; it runs wherever an Electron binary is installed and says why it skips otherwise.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { _electron } from 'playwright-core';
import { screenshot } from '../helpers/browser.ts';
import { ensureBuilt, ROOT } from '../helpers/build.ts';

/**
 * The Electron binary's path, or why there is none. Read from the electron package's files rather than by
 * requiring it: requiring it starts the (lazy) download, which these machines cannot reach.
 */
function electronBinary(): { path: string } | { reason: string } {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const pathFile = path.join(ROOT, 'node_modules/electron/path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const binary = override
    ? path.join(override, relative ?? 'electron')
    : relative && path.join(ROOT, 'node_modules/electron/dist', relative);
  if (binary && existsSync(binary)) return { path: binary };
  return {
    reason: `no Electron binary is installed (${binary ?? 'node_modules/electron/path.txt is missing'}): its download is lazy and unreachable here; run \`npx install-electron\` where it works, or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron`,
  };
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

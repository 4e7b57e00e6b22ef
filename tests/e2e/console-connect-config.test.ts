// End-to-end test in Debian's Chromium of Connect writing a tool's config: the change is shown as a diff before anything is written, Apply writes it with the tool's own token, Undo restores the file byte for byte.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, privateServeArgs, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { startGateway, tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the Connect config e2e test: ${skip}`);

describe('Connect writes the config, in the console', { skip }, () => {
  const dirs = tempDirs();
  let home: string;
  let dataDir: string;
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  // The user's own settings, spaced unlike JSON.stringify, so a restore that re-serialises would show.
  const before_ = '{"theme":"dark",   "permissions": {"allow": ["Bash(ls)"]}}';
  const settingsFile = () => path.join(home, '.claude', 'settings.json');

  before(async () => {
    await ensureBuilt();
    home = dirs.fresh();
    dataDir = dirs.fresh();
    mkdirSync(path.join(home, '.claude'));
    writeFileSync(settingsFile(), before_);
    server = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }), { GATEHOUSE_HOME_DIR: home });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    dirs.removeAll();
  });

  test('Claude Code: the diff is shown first, Apply writes the env block with the claude-code token, Undo restores the file', async () => {
    await page.goto(await consoleUrlOf(server));
    await page.getByRole('navigation').getByRole('link', { name: 'Connect', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Write the config' });
    const diff = panel.getByLabel('~/.claude/settings.json');
    await diff.getByText(`"ANTHROPIC_BASE_URL": "${server.url}",`).waitFor();
    assert.equal(await diff.locator('.diff-add', { hasText: '"ANTHROPIC_AUTH_TOKEN": "<API token \\"claude-code\\">"' }).count(), 1);
    assert.equal(await diff.locator('.diff-add', { hasText: '"theme": "dark",' }).count(), 1, 'the old one-line file is shown re-indented');
    assert.equal(readFileSync(settingsFile(), 'utf8'), before_, 'showing the change writes nothing');
    await screenshot(page, 'connect-config-claude-code');

    await panel.getByRole('button', { name: 'Apply' }).click();
    await panel.getByRole('status').getByText('Written, with the API token “claude-code”').waitFor();
    const written = JSON.parse(readFileSync(settingsFile(), 'utf8'));
    assert.equal(written.theme, 'dark');
    assert.deepEqual(written.permissions, { allow: ['Bash(ls)'] });
    assert.equal(written.env.ANTHROPIC_BASE_URL, server.url);
    assert.match(written.env.ANTHROPIC_AUTH_TOKEN, /^sk-gh-/);
    assert.equal(await page.getByText(written.env.ANTHROPIC_AUTH_TOKEN).count(), 0, 'the page never shows the token');
    const tokens = await runCliAsync(['token', 'list', '--data-dir', dataDir]);
    assert.match(tokens.stdout, /\tclaude-code\t/);

    await panel.getByRole('button', { name: 'Undo' }).click();
    await panel.getByRole('status').getByText('Restored as before: ~/.claude/settings.json.').waitFor();
    assert.equal(readFileSync(settingsFile(), 'utf8'), before_, 'byte for byte');
    assert.ok(await panel.getByRole('button', { name: 'Undo' }).isDisabled(), 'nothing more to undo');
  });

  test('Gemini CLI: both files are shown, the .env as a new file, the trusted project folder when given; Apply then Undo leaves no .env behind', async () => {
    await page.getByRole('tab', { name: 'Gemini CLI' }).click();
    const panel = page.getByRole('region', { name: 'Write the config' });
    await panel.getByLabel('~/.gemini/.env').getByText(`GOOGLE_GEMINI_BASE_URL=${server.url}`).waitFor();
    await panel.getByTestId('tool-file').filter({ hasText: '~/.gemini/.env' }).getByText('new file').waitFor();
    assert.equal(await panel.getByLabel('~/.gemini/trustedFolders.json').count(), 0, 'no folder given, trust is left alone');
    const project = path.join(home, 'work', 'app');
    await panel.getByLabel('Trusted project folder').fill(project);
    await panel.getByRole('button', { name: 'Show the change' }).click();
    await panel.getByLabel('~/.gemini/trustedFolders.json').getByText(`"${project}": "TRUST_FOLDER"`).waitFor();
    await panel.getByRole('button', { name: 'Apply' }).click();
    await panel.getByRole('status').getByText('Written').waitFor();
    assert.match(readFileSync(path.join(home, '.gemini', '.env'), 'utf8'), /^GOOGLE_GEMINI_BASE_URL=.*\nGEMINI_API_KEY=sk-gh-/);
    assert.deepEqual(JSON.parse(readFileSync(path.join(home, '.gemini', 'trustedFolders.json'), 'utf8')), { [project]: 'TRUST_FOLDER' });
    await panel.getByRole('button', { name: 'Undo' }).click();
    await panel.getByRole('status').getByText('Restored as before').waitFor();
    assert.equal(existsSync(path.join(home, '.gemini')), false, 'the folder it made is gone again');
  });

  test('a real upstream in the config is offered by its hint and added as a channel in one click, its key never shown', async () => {
    // A second Gatehouse on loopback stands in for the user's own Anthropic upstream; its token is the user's key.
    const upstream = await startGateway();
    try {
      writeFileSync(settingsFile(), JSON.stringify({ env: { ANTHROPIC_BASE_URL: upstream.url, ANTHROPIC_API_KEY: upstream.token } }));
      await page.getByRole('tab', { name: 'Claude Code' }).click();
      const panel = page.getByRole('region', { name: 'Write the config' });
      await panel.getByRole('button', { name: 'Show the change' }).click();
      const offer = panel.getByTestId('tool-import');
      await offer.getByText(`The config points to ${upstream.url} with a key`).waitFor();
      assert.equal(await page.getByText(upstream.token).count(), 0, 'the key is shown as a hint only');
      await offer.getByRole('button', { name: 'Add as a channel' }).click();
      await panel.getByRole('status').getByText('Channel “claude-code-import” added').waitFor();
      const channels = await runCliAsync(['channel', 'list', '--data-dir', dataDir]);
      assert.match(channels.stdout, new RegExp(`claude-code-import\tanthropic\t${upstream.url.replace(/\./g, '\\.')}`));
      assert.ok(!channels.stdout.includes(upstream.token));
    } finally {
      await upstream.stop();
    }
  });
});

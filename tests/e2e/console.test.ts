// End-to-end tests of the web console in Debian's Chromium against `gatehouse serve`: live asset statuses, failures, tokens used with curl, pages, themes and languages.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { advanceClockOf, consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the console e2e tests: ${skip}`);

/** Runs curl (the way a user would try a token) and returns the HTTP status and parsed body. */
function curl(url: string, token: string): { status: number; body: any } {
  const result = spawnSync('curl', ['-s', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${token}`, url], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  const status = Number(lines.pop());
  return { status, body: JSON.parse(lines.join('\n')) };
}

/**
 * How long a simulated review takes on the gateway's clock: far longer than any page takes to show a row, so a new asset
 * is seen pending however busy the machine is, and it reaches its verdict when a test moves the clock past it.
 */
const REVIEW_MS = 3_600_000;

describe('web console', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;

  before(async () => {
    await ensureBuilt();
    server = await serveCli([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--secrets',
      'none',
      '--sim-review-ms',
      String(REVIEW_MS),
      '--refresh-interval-ms',
      '400',
    ]);
    consoleUrl = await consoleUrlOf(server);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Moves the gateway's clock past a review, as a test suite does through the testing API. */
  const endReviews = () => advanceClockOf(server, consoleUrl, REVIEW_MS);

  /** Goes to a page through the navigation, as a user clicks it. */
  const open = async (name: string) => {
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };

  test('the printed console URL opens the overview and the token leaves the address bar', async () => {
    await page.goto(consoleUrl);
    await page.getByTestId('base-url').waitFor();
    assert.equal(await page.getByTestId('base-url').textContent(), server.url);
    assert.equal(new URL(page.url()).searchParams.has('admin_token'), false, 'the token is moved out of the URL');
    assert.equal(
      await page.evaluate("sessionStorage.getItem('gatehouse.adminToken')"),
      new URL(consoleUrl).searchParams.get('admin_token'),
    );
    await page.reload();
    await page.getByTestId('base-url').waitFor();
    await page.locator('.live-open').waitFor();
    await screenshot(page, 'overview');
  });

  test('a console address from an earlier run says so once, and stops reconnecting', async () => {
    const stale = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const url = new URL(consoleUrl);
      url.searchParams.set('admin_token', 'an-admin-token-of-an-earlier-run');
      await stale.goto(url.toString());
      await stale.locator('.live-refused').waitFor();
      const alerts = stale.getByRole('alert');
      assert.equal(await alerts.count(), 1, 'one message, not two conflicting ones');
      assert.match((await alerts.textContent())!, /from an earlier run of the gateway/);
      assert.match((await alerts.textContent())!, /gatehouse serve/);
      assert.equal(await stale.getByText('Reconnecting…').count(), 0);
      assert.equal(await stale.locator('.banner.warn').count(), 0, 'no "reconnecting" banner beside it');
      await screenshot(stale, 'stale-admin-token');
    } finally {
      await stale.close();
    }
  });

  test('a registered asset turns Active without a reload, and its resolved URL shows', async () => {
    await page.evaluate('window.__sameDocument = true');
    await open('Assets');
    await page.getByRole('form', { name: 'Create group' }).getByLabel('Group name').fill('Spokespeople');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.locator('.group-list').getByText('Spokespeople').waitFor();

    const form = page.getByRole('form', { name: 'Register an asset' });
    await form.getByLabel('URL').fill('https://cdn.example.com/anna.png');
    await form.getByLabel('Name (optional)').fill('Anna');
    await form.getByRole('button', { name: 'Register' }).click();
    const badge = page.getByRole('table', { name: 'Assets' }).getByRole('row', { name: /Anna/ }).locator('.badge');
    await badge.waitFor();
    assert.match((await badge.textContent())!, /^(Submitted|Processing)$/, 'the review starts pending');
    await endReviews();
    await page.getByRole('table', { name: 'Assets' }).getByRole('row', { name: /Anna/ }).locator('.badge', { hasText: 'Active' }).waitFor();
    await page.getByTestId('asset-detail').locator('.badge', { hasText: 'Active' }).waitFor();
    assert.match((await page.getByTestId('resolved-url').textContent())!, /^asset:\/\//);
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'no reload happened');
    await screenshot(page, 'assets');
  });

  test('a reject URL turns Failed and the detail panel says why', async () => {
    const form = page.getByRole('form', { name: 'Register an asset' });
    await form.getByLabel('URL').fill('https://cdn.example.com/reject-this.png');
    await form.getByLabel('Name (optional)').fill('Rejected one');
    await form.getByRole('button', { name: 'Register' }).click();
    const row = page.getByRole('table', { name: 'Assets' }).getByRole('row', { name: /Rejected one/ });
    await row.locator('.badge', { hasText: /^(Submitted|Processing)$/ }).waitFor();
    await endReviews();
    await row.locator('.badge', { hasText: 'Failed' }).waitFor();
    await row.getByRole('button', { name: 'Rejected one' }).click();
    const reason = page.getByTestId('failure-reason');
    await reason.waitFor();
    assert.match((await reason.textContent())!, /review rejected/);
    assert.match((await reason.textContent())!, /register it again/, 'the message says what to do');
    await screenshot(page, 'assets-failed');
  });

  test('the spec’s validation message shows beside the field at fault', async () => {
    const form = page.getByRole('form', { name: 'Register an asset' });
    await form.getByLabel('URL').fill('http://cdn.example.com/plain-http.png');
    await form.getByRole('button', { name: 'Register' }).click();
    const error = form.locator('.field.invalid .field-error');
    await error.waitFor();
    assert.equal(await error.textContent(), 'url must be a well-formed https:// URL');
    await form.getByLabel('URL').fill('');
  });

  test('a token created in the console works with curl until it is revoked', async () => {
    await open('Tokens');
    const form = page.getByRole('form', { name: 'Create token' });
    await form.getByLabel('Account').fill('e2e-bot');
    await form.getByLabel('Name').fill('curl');
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('created-secret').locator('code.secret').textContent())!;
    assert.match(secret, /^sk-gh-[A-Za-z0-9]{40}$/);
    await screenshot(page, 'tokens');

    const ok = curl(`${server.url}/v1/portrait/groups`, secret);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.success, true);
    assert.equal(ok.body.data.total, 0, 'a new account starts with no groups');

    await page.getByRole('button', { name: 'I saved it' }).click();
    const row = page.locator('tr', { hasText: 'e2e-bot' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke for good' }).click();
    await row.locator('.badge', { hasText: 'revoked' }).waitFor();
    const refused = curl(`${server.url}/v1/portrait/groups`, secret);
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /revoked/);
  });

  test('Channels explains how to add the first upstream', async () => {
    await open('Channels');
    await page.getByText('No channels yet').waitFor();
    await screenshot(page, 'channels');
  });

  test('settings switch to the dark theme and to Chinese, and the choice survives a reload', async () => {
    await open('Settings');
    await page.getByText('--refresh-interval-ms / GATEHOUSE_REFRESH_INTERVAL_MS').waitFor();
    await screenshot(page, 'settings');
    await page.getByLabel('Dark').check();
    assert.equal(await page.evaluate('document.documentElement.dataset.theme'), 'dark');
    await page.getByLabel('Language').selectOption('zh');
    await page.getByRole('navigation').getByRole('link', { name: '概览' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '设置' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.dataset.theme'), 'dark');
    assert.equal(await page.evaluate('document.documentElement.lang'), 'zh-CN');
    await screenshot(page, 'settings-dark-zh');
    await page.getByLabel('浅色').check();
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).waitFor();
  });
});

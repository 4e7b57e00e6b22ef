// End-to-end test of a relayed call in the console's Logs detail, in Debian's Chromium against `gatehouse serve` with channels added by the CLI: the channel that answered, the model it was sent, each try.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { consoleUrlOf, firstTokenOf, privateServeArgs, runCliAsync, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { deadPort } from '../helpers/ports.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the relayed Logs e2e test: ${skip}`);

describe('console Logs page, relayed call', { skip }, () => {
  const dirs = tempDirs();
  let upstream: TestGateway;
  let front: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    await ensureBuilt();
    upstream = await startGateway();
    const dataDir = dirs.fresh();
    front = await serveCli(privateServeArgs(dataDir, { secrets: 'file' }));
    const add = async (args: string[]) => {
      const added = await runCliAsync(
        ['channel', 'add', '--kind', 'openai', '--models', 'relay-chat=sim-chat', '--data-dir', dataDir, '--secrets', 'file', ...args],
        { UPSTREAM_KEY: upstream.token },
      );
      assert.equal(added.code, 0, added.stderr);
    };
    await add(['--name', 'gone', '--base-url', `http://127.0.0.1:${await deadPort()}/v1`, '--priority', '2']);
    await add(['--name', 'sim-upstream', '--base-url', `${upstream.url}/v1`, '--priority', '1', '--key-env', 'UPSTREAM_KEY']);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1500, height: 1000 } })).newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(await consoleUrlOf(front));
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await front?.stop();
    await upstream?.stop();
  });

  test('the detail says which channel answered as which model, and lists the failed try before it', async () => {
    const client = new OpenAI({ apiKey: firstTokenOf(front), baseURL: `${front.url}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'relay-chat', messages: [{ role: 'user', content: 'fail over' }] });
    assert.equal(answer.model, 'relay-chat');

    await page.getByRole('navigation').getByRole('link', { name: 'Logs', exact: true }).click();
    const row = page.getByRole('table', { name: 'API calls' }).locator('tbody tr').filter({ hasText: 'POST /v1/chat/completions' });
    await row.waitFor();
    await row.getByRole('button').click();
    const relay = page.getByTestId('log-relay');
    await relay.waitFor();
    assert.match((await relay.textContent())!, /Relayed to sim-upstream as sim-chat/);
    const tries = (await relay.getByTestId('log-relay-attempts').locator('li').allTextContents()).map((line) => line.trim());
    assert.equal(tries.length, 2, tries.join('\n'));
    assert.match(tries[0]!, /^gone: .+ after \d+ ms$/);
    assert.match(tries[1]!, /^sim-upstream: HTTP 200 in \d+ ms$/);
    assert.equal((await page.getByTestId('log-detail').textContent())!.includes(upstream.token), false, 'no channel key shown');
    await screenshot(page, 'logs-relay-detail');
  });
});

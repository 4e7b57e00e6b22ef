// End-to-end tests of the console pages that call the public API with a real token: the chat playground (stream, stop) and 3D tasks (progress, preview).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { advanceClockOf, consoleUrlOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { tempDataDir } from '../helpers/gateway.ts';

/** How long a simulated 3D task takes on the gateway's clock: it stays under way until a test moves the clock past it. */
const TASK_MS = 3_600_000;

const skip = browserSkipReason();
if (skip) console.log(`# skipping the playground and 3D e2e tests: ${skip}`);

describe('console pages on the public API', { skip }, () => {
  const dataDir = tempDataDir();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let token: string;
  let consoleUrl: string;

  /** Skips (saying why) when the gateway does not serve an endpoint yet. */
  const needs = async (t: TestContext, method: string, path: string, body: unknown): Promise<boolean> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status === 404 && text.includes('Unknown endpoint')) {
      t.skip(`${method} ${path} is not served by this gateway yet`);
      return false;
    }
    return true;
  };

  const open = async (name: string) => {
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };

  before(async () => {
    await ensureBuilt();
    server = await serveCli(['--port', '0', '--data-dir', dataDir, '--secrets', 'none'], { GATEHOUSE_SIM_3D_MS: String(TASK_MS) });
    token = /sk-gh-[A-Za-z0-9]{40}/.exec(server.stdout.join('\n'))![0];
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    consoleUrl = await consoleUrlOf(server);
    await page.goto(consoleUrl);
    await page.getByTestId('base-url').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the playground streams a reply and shows the raw exchange', async (t) => {
    if (!(await needs(t, 'GET', '/v1/models', undefined))) return;
    await open('Playground');
    await page.getByRole('button', { name: 'Use a token of this account' }).click();
    await page.getByLabel('Message', { exact: true }).fill('Say hello to the console test.');
    await page.getByRole('button', { name: 'Send' }).click();
    // The bubble appears before the first token; wait for streamed text in it, not just for the bubble.
    const reply = page.locator('.bubble.assistant', { hasText: /\S/ }).last();
    await reply.waitFor();
    assert.notEqual((await reply.textContent())!.trim(), '');
    assert.match((await page.getByTestId('raw-request').textContent())!, /"stream": true/);
    assert.match((await page.getByTestId('raw-request').textContent())!, /Bearer sk-gh-..…/, 'the shown request hides the key');
    await screenshot(page, 'playground');
  });

  test('"Copy as curl" in the playground gives a command that works with the token in $TOKEN', async (t) => {
    if (!(await needs(t, 'GET', '/v1/models', undefined))) return;
    await open('Playground');
    // The first test chose a token already; a run of this test alone chooses one here.
    const useToken = page.getByRole('button', { name: 'Use a token of this account' });
    if (await useToken.isVisible()) await useToken.click();
    await page.getByLabel('Message', { exact: true }).fill('Copy me as curl.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.bubble.assistant', { hasText: /\S/ }).last().waitFor();
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const command = (await page.evaluate('navigator.clipboard.readText()')) as string;
    assert.match(command, /Bearer \$TOKEN/, 'the command reads the token from $TOKEN');
    assert.doesNotMatch(command, /sk-gh-/, 'and holds no key nor its hint');
    const replay = spawnSync('sh', ['-c', `${command} -s -w '\\n%{http_code}'`], {
      env: { ...process.env, TOKEN: token },
      encoding: 'utf8',
    });
    assert.equal(replay.status, 0, replay.stderr);
    assert.match(replay.stdout, /data: \[DONE\]/, 'the streamed answer arrives');
    assert.match(replay.stdout, /\n200$/);
  });

  test('stop ends a streamed reply mid-way and keeps what arrived', async (t) => {
    if (!(await needs(t, 'GET', '/v1/models', undefined))) return;
    await open('Playground');
    // A slow line makes "mid-way" certain whatever the simulator's pace: the reply trickles in.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 1000, uploadThroughput: -1 });
    try {
      await page.getByLabel('Max output tokens').fill('2000');
      await page.getByLabel('Message', { exact: true }).fill('Write a very long story about rivers, mountains and the sea.');
      await page.getByRole('button', { name: 'Send' }).click();
      const streaming = page.getByTestId('streaming-reply');
      await streaming.filter({ hasText: /\S/ }).waitFor();
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.getByTestId('stopped-note').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Stop' }).count(), 0, 'no reply is streaming any more');
      assert.notEqual((await page.locator('.bubble.assistant').last().textContent())!.trim(), '', 'the partial reply is kept');
      assert.doesNotMatch((await page.getByTestId('raw-response').textContent())!, /\[DONE\]/, 'the stream was cut before its end');
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    }
    await screenshot(page, 'playground-stopped');
  });

  test('the pace control slows the reply so Stop can be pressed, and the fault control makes the call fail', async (t) => {
    if (!(await needs(t, 'GET', '/v1/models', undefined))) return;
    await open('Playground');
    await page.getByText('Pace, latency and faults').click();
    await page.getByLabel('Pace (tokens per second)').fill('5');
    await page.getByLabel('Message', { exact: true }).fill('Tell me about slow rivers and patient mountains.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('streaming-reply').filter({ hasText: /\S/ }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByTestId('stopped-note').waitFor();
    assert.match((await page.getByTestId('raw-request').textContent())!, /x-gatehouse-pace: 5/, 'the pace is sent as its header');
    assert.doesNotMatch((await page.getByTestId('raw-response').textContent())!, /\[DONE\]/, 'stopped before its end');

    await page.getByLabel('Pace (tokens per second)').fill('');
    await page.getByLabel('Fault').selectOption('429');
    await page.getByLabel('Message', { exact: true }).fill('This call is meant to fail.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /rate|429/i })
      .waitFor();
    await screenshot(page, 'playground-fault');
    await page.getByLabel('Fault').selectOption('');
  });

  test('the Anthropic and Gemini formats stream too', async (t) => {
    for (const [format, path, body] of [
      ['Anthropic', '/v1/messages', { model: 'x', max_tokens: 1, messages: [] }],
      ['Gemini', '/v1beta/models/x:streamGenerateContent?alt=sse', { contents: [] }],
    ] as const) {
      if (!(await needs(t, 'POST', path, body))) return;
      await open('Playground');
      await page.getByRole('button', { name: 'Clear' }).click();
      await page.getByRole('tab', { name: format }).click();
      await page.getByLabel('Message', { exact: true }).fill(`Hello in the ${format} format.`);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.bubble.assistant').last().waitFor();
      assert.match(
        (await page.getByTestId('raw-request').textContent())!,
        format === 'Anthropic' ? /POST \/v1\/messages/ : /streamGenerateContent/,
      );
    }
  });

  /** The Playground in the OpenAI format with an empty conversation and a token chosen. */
  const freshPlayground = async () => {
    await open('Playground');
    const useToken = page.getByRole('button', { name: 'Use a token of this account' });
    const openai = page.locator('[role=tab]', { hasText: 'OpenAI' });
    await page.locator('.playground-page, .page .empty').first().waitFor();
    if (await useToken.isVisible()) await useToken.click();
    await openai.click();
    const clear = page.getByRole('button', { name: 'Clear' });
    if (await clear.isEnabled()) await clear.click();
  };

  test('Enter sends the message; Shift+Enter and an Enter that ends an input method composition do not', async (t) => {
    if (!(await needs(t, 'GET', '/v1/models', undefined))) return;
    await freshPlayground();
    const message = page.getByLabel('Message', { exact: true });
    await message.click();
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    assert.equal(await message.inputValue(), 'First line\nsecond line', 'Shift+Enter starts a new line');
    assert.equal(await page.locator('.bubble.user').count(), 0, 'and sends nothing');
    // An Enter that picks a word in an input method (Chinese, Japanese) is part of the composition: nothing is sent.
    await message.dispatchEvent('keydown', { key: 'Enter', code: 'Enter', isComposing: true, bubbles: true });
    assert.equal(await message.inputValue(), 'First line\nsecond line', 'an Enter during a composition leaves the text as it is');
    assert.equal(await page.locator('.bubble.user').count(), 0);
    await page.keyboard.press('Enter');
    await page.locator('.bubble.user', { hasText: 'First line' }).waitFor();
    assert.equal(await page.locator('.bubble.user').textContent(), 'First line\nsecond line');
    assert.equal(await message.inputValue(), '', 'the sent text leaves the field');
    await page.locator('.bubble.assistant', { hasText: /\S/ }).waitFor();
  });

  test('with the stream switch off a reply comes as one answer, and every reply shows its tokens, tokens per second and latency', async (t) => {
    if (!(await needs(t, 'GET', '/v1/models', undefined))) return;
    await freshPlayground();
    const stats = /^(\d+) tokens · (\d+\.\d|—) tokens\/s · latency (\d+) ms$/;
    await page.getByLabel('Message', { exact: true }).fill('A streamed hello.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('reply-stats').first().waitFor();
    assert.match((await page.getByTestId('reply-stats').first().textContent())!, stats, 'a streamed reply has its measures');

    const stream = page.getByLabel('Stream the reply');
    assert.equal(await stream.isChecked(), true, 'replies stream by default');
    await stream.uncheck();
    await page.getByLabel('Message', { exact: true }).fill('One answer, please.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('reply-stats').nth(1).waitFor();
    assert.equal(await page.locator('.bubble.assistant').count(), 2, 'one reply for one message');
    assert.match((await page.getByTestId('raw-request').textContent())!, /"stream": false/);
    await page.getByText('Response', { exact: true }).click();
    const raw = (await page.getByTestId('raw-response').textContent())!;
    assert.doesNotMatch(raw, /^data:/m, 'the answer is not an event stream');
    assert.equal(JSON.parse(raw).object, 'chat.completion', 'it is one chat completion');
    const measures = stats.exec((await page.getByTestId('reply-stats').nth(1).textContent())!);
    assert.ok(measures, 'the unstreamed reply has its measures');
    assert.equal(Number(measures[1]), JSON.parse(raw).usage.completion_tokens, 'its tokens are the answer’s output tokens');
    await stream.check();
    await screenshot(page, 'playground-stats');
  });

  test('a 3D task shows its progress, then its files and a preview of the GLB', async (t) => {
    if (!(await needs(t, 'GET', '/v1/3d/generations/task_missing', undefined))) return;
    await open('3D tasks');
    const useToken = page.getByRole('button', { name: 'Use a token of this account' });
    if (await useToken.count()) await useToken.click();
    await page.getByLabel('Prompt').fill('a small wooden chair');
    await page.getByRole('button', { name: 'Create task' }).click();
    const card = page.locator('.task-card').first();
    await card.getByRole('progressbar').waitFor();
    // Its time on the gateway's clock passes at once, as a test suite moves it; the page's poll then finds it done.
    await advanceClockOf(server, consoleUrl, TASK_MS);
    await page.locator('.task-card[data-status="SUCCESS"], .task-card[data-status="FAILURE"]').first().waitFor({ timeout: 60_000 });
    assert.equal(await card.getAttribute('data-status'), 'SUCCESS', (await card.textContent()) ?? '');
    const preview = page.getByTestId('glb-preview');
    await preview.and(page.locator('[data-triangles]')).waitFor();
    assert.ok(Number(await preview.getAttribute('data-triangles')) > 0, 'the GLB has triangles');
    assert.ok(await page.getByRole('button', { name: /^Download GLB$/ }).count());
    await screenshot(page, 'tasks3d');
  });
});

// End-to-end test in Debian's Chromium of the Models page's alias editor: an alias added there is listed and answers through the OpenAI SDK after a restart; a bad target is refused naming the field; the flag pins the aliases.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, screenshot } from '../helpers/browser.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { adminTokenOf, consoleUrlOf, firstTokenOf, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { request, tempDirs } from '../helpers/gateway.ts';

const skip = browserSkipReason();
if (skip) console.log(`# skipping the model aliases e2e test: ${skip}`);

describe('model aliases on the Models page', { skip }, () => {
  const dirs = tempDirs();
  let dataDir: string;
  let settingsFile: string;
  let server: ServeProcess;
  let token: string;
  let browser: Browser;
  let page: Page;
  const serve = (extra: string[] = []) =>
    serveCli(['--port', '0', '--tls-port', 'off', '--data-dir', dataDir, '--settings-file', settingsFile, '--secrets', 'none', ...extra]);
  const openModels = async () => {
    await page.goto(await consoleUrlOf(server));
    await page.getByRole('navigation').getByRole('link', { name: 'Models', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
  };
  const client = () => new OpenAI({ apiKey: token, baseURL: `${server.url}/v1`, maxRetries: 0 });
  const listed = async () => (await client().models.list()).data.map((model) => model.id);

  before(async () => {
    await ensureBuilt();
    dataDir = dirs.fresh();
    settingsFile = path.join(dirs.fresh(), 'settings.json');
    server = await serve();
    token = firstTokenOf(server);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    dirs.removeAll();
  });

  test('an alias added, edited and removed on the Models page is saved, waits for a restart, then is listed and answers through the OpenAI SDK', async () => {
    await openModels();
    const panel = page.getByRole('region', { name: 'Model aliases' });
    await panel.getByText('No aliases saved.').waitFor();
    await panel.getByLabel('Alias', { exact: true }).fill('a=b');
    await panel.getByText('An alias name cannot contain "=" or ","').waitFor();
    assert.ok(await panel.getByRole('button', { name: 'Add alias' }).isDisabled(), 'a bad name cannot be saved');

    await panel.getByLabel('Alias', { exact: true }).fill('team-gpt');
    await panel.getByLabel('Stands for').selectOption('sim-embed');
    await panel.getByRole('button', { name: 'Add alias' }).click();
    const row = panel.getByTestId('alias-row').filter({ hasText: 'team-gpt' });
    await row.getByText('sim-embed').waitFor();
    await panel
      .getByRole('status')
      .getByText(/Saved\. The aliases change when the server starts again/)
      .waitFor();

    await row.getByRole('button', { name: 'Edit alias team-gpt' }).click();
    await panel.getByLabel('Stands for').first().selectOption('sim-chat');
    await panel.getByRole('button', { name: 'Save alias' }).click();
    await row.getByText('sim-chat').waitFor();

    await panel.getByLabel('Alias', { exact: true }).fill('spare');
    await panel.getByRole('button', { name: 'Add alias' }).click();
    const spare = panel.getByTestId('alias-row').filter({ hasText: 'spare' });
    await spare.waitFor();
    await spare.getByRole('button', { name: 'Remove alias spare' }).click();
    await spare.waitFor({ state: 'detached' });
    await screenshot(page, 'models-aliases');
    assert.deepEqual(
      JSON.parse(readFileSync(settingsFile, 'utf8')),
      { modelAliases: { 'team-gpt': 'sim-chat' } },
      'only the aliases are saved',
    );
    assert.ok(!(await listed()).includes('team-gpt'), 'this run keeps the aliases it started with');

    await server.stop();
    server = await serve();
    assert.ok((await listed()).includes('team-gpt'), 'the next start lists the saved alias');
    const answer = await client().chat.completions.create({
      model: 'team-gpt',
      messages: [{ role: 'user', content: 'through the alias' }],
    });
    assert.equal(answer.model, 'team-gpt');
    assert.ok(answer.choices[0]?.message.content, 'the alias answers as a chat model');
    await openModels();
    await page.getByTestId('model-row').filter({ hasText: 'team-gpt' }).getByText('alias of sim-chat').waitFor();
  });

  test('a target the gateway does not list is a 400 naming modelAliases, and nothing is saved', async () => {
    const adminToken = await adminTokenOf(server);
    const before = readFileSync(settingsFile, 'utf8');
    const refused = await request(`${server.url}/admin/api/settings`, 'PUT', {
      token: adminToken,
      body: { modelAliases: { 'team-gpt': 'sim-chat', other: 'no-such-model' } },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.param, 'modelAliases');
    assert.match(refused.body.error.message, /"no-such-model", which is not a model this gateway lists/);
    assert.equal(readFileSync(settingsFile, 'utf8'), before);
  });

  test('--model-aliases pins the aliases: the page shows the flag and this run’s aliases, with no editor', async () => {
    await server.stop();
    server = await serve(['--model-aliases', 'pinned-gpt=sim-chat']);
    await openModels();
    const panel = page.getByRole('region', { name: 'Model aliases' });
    await panel.getByTestId('aliases-pinned').getByText('On this run --model-aliases sets the aliases below').waitFor();
    await panel.getByText('pinned-gpt').waitFor();
    assert.equal(await panel.getByRole('button', { name: 'Add alias' }).count(), 0);
    const ids = await listed();
    assert.ok(ids.includes('pinned-gpt') && !ids.includes('team-gpt'), 'the flag wins over the saved aliases');
    assert.deepEqual(
      JSON.parse(readFileSync(settingsFile, 'utf8')),
      { modelAliases: { 'team-gpt': 'sim-chat' } },
      'the flag never leaks into the file',
    );
    await screenshot(page, 'models-aliases-pinned');
  });
});

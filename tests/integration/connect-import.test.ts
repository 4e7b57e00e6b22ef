// Connect imports what is there: the upstream a tool's config pointed to (read from the backup once connected) becomes a relay channel whose key goes to the secret store only, and calls reach it.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ChannelSummary } from '../../shared/channels.ts';
import type { ToolConfigPlan } from '../../shared/tool-config.ts';
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { request, startGateway, tempDataDir, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { journalEntries } from '../helpers/relay.ts';
import { eventually } from '../helpers/eventually.ts';

describe('importing a tool config as a channel', () => {
  const dirs = tempDirs();
  let upstream: TestGateway;
  let gateway: TestGateway;
  let home: string;
  const admin = <T>(method: string, route: string, body?: unknown) =>
    request<T>(`${gateway.url}/admin/api/connect/${route}`, method, { token: gateway.gateway.adminToken, body });

  before(async () => {
    // A second Gatehouse stands in for the user's real Anthropic upstream; its token is the user's key.
    upstream = await startGateway();
    home = dirs.fresh();
    mkdirSync(path.join(home, '.claude'));
    writeFileSync(
      path.join(home, '.claude', 'settings.json'),
      JSON.stringify({ env: { ANTHROPIC_BASE_URL: upstream.url, ANTHROPIC_API_KEY: upstream.token } }),
    );
    const dataDir = tempDataDir();
    gateway = await startGateway({ dataDir, secrets: openFileStore(dataDir), homeDir: home });
  });
  after(async () => {
    await gateway?.stop();
    await upstream?.stop();
    dirs.removeAll();
  });

  test('the plan offers the upstream by its hint; after connecting, import adds it from the backup; the key is only in the secret store', async () => {
    const plan = await admin<ToolConfigPlan>('GET', 'claude-code');
    assert.equal(plan.status, 200);
    assert.deepEqual(plan.body.importable, { kind: 'anthropic', baseUrl: upstream.url, keyHint: plan.body.importable?.keyHint });
    assert.ok(!JSON.stringify(plan.body).includes(upstream.token), 'the plan never carries the key');

    assert.equal((await admin('POST', 'claude-code/apply', {})).status, 200);
    const imported = await admin<ChannelSummary>('POST', 'claude-code/import', {});
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    assert.equal(imported.body.name, 'claude-code-import');
    assert.equal(imported.body.kind, 'anthropic');
    assert.notEqual(imported.body.key_hint, null);
    assert.ok(!JSON.stringify(imported.body).includes(upstream.token));

    // A call through the gateway now goes to the imported upstream.
    const client = new Anthropic({ baseURL: gateway.url, apiKey: gateway.token, maxRetries: 0 });
    const answer = await client.messages.create({ model: 'sim-echo', max_tokens: 50, messages: [{ role: 'user', content: 'relayed?' }] });
    assert.equal(answer.content[0]?.type, 'text');
    const [entry] = await eventually(async () => {
      const found = await journalEntries(gateway, { path: '/v1/messages' });
      return found.length > 0 ? found : undefined;
    }, 'the relayed call in the journal');
    assert.equal(entry.relay?.channel, 'claude-code-import');

    const files = readdirSync(gateway.dataDir).filter((name) => name !== 'secrets.json');
    for (const name of files) {
      if (name.includes('.')) assert.ok(!readFileSync(path.join(gateway.dataDir, name)).includes(upstream.token), `${name} holds no key`);
    }
    assert.ok(readFileSync(path.join(gateway.dataDir, 'secrets.json'), 'utf8').includes(upstream.token), 'the secret store keeps it');
  });

  test('a tool whose config points to no upstream answers 404', async () => {
    const answer = await admin<{ error: { message: string } }>('POST', 'codex/import', {});
    assert.equal(answer.status, 404);
  });
});

// Integration tests of provider presets, Fetch models, Test and Test all: an Ollama-like stand-in and a second Gatehouse as the upstreams, through the admin API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { presetById, presetInput } from '../../shared/channel-presets.ts';
import type { ChannelSummary, ChannelTestResult, ChannelTestRow } from '../../shared/channels.ts';
import type { HostileUpstream } from '../helpers/hostile-upstream.ts';
import { ollamaStandIn, STAND_IN_ANSWER, STAND_IN_MODELS } from '../helpers/ollama-stand-in.ts';
import { channelStage, type ChannelStage } from '../helpers/channel-stage.ts';
import { tempDirs, type TestGateway } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

describe('presets, Fetch models and Test', () => {
  let stage: ChannelStage;
  let upstream: TestGateway;
  let ollama: HostileUpstream;
  let admin: ChannelStage['admin'];

  before(async () => {
    stage = await channelStage(dirs.fresh());
    ({ upstream, ollama, admin } = stage);
  });
  after(() => stage.stop());

  test('an Ollama preset channel: Fetch models fills the list, Test sends a real chat with max_tokens and shows the answer', async () => {
    const preset = presetById('ollama')!;
    assert.equal(preset.baseUrl, 'http://127.0.0.1:11434/v1');
    const created = await admin('POST', '/channels', { ...presetInput(preset), base_url: `${ollama.url}/v1` });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const channel = created.body as ChannelSummary;
    assert.equal(channel.compat, 'compatible');
    assert.equal(channel.models, '*');

    const fetched = await admin('POST', `/channels/${channel.id}/models`, { save: true });
    assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
    assert.deepEqual(fetched.body.models, STAND_IN_MODELS);
    assert.equal((fetched.body.channel as ChannelSummary).models, 'llama3.2:3b, qwen3:8b');

    const tested = await admin('POST', `/channels/${channel.id}/test`, {});
    const result = tested.body as ChannelTestResult;
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.model, 'llama3.2:3b');
    assert.equal(result.answer, STAND_IN_ANSWER);
    assert.equal(typeof result.latency_ms, 'number');
    const sent = ollama.requests.filter((item) => item.url === '/v1/chat/completions').at(-1)!;
    const body = JSON.parse(sent.body.toString()) as Record<string, unknown>;
    assert.equal(body['model'], 'llama3.2:3b');
    assert.equal(body['max_tokens'], 16, 'a compatible server is sent max_tokens');
    assert.equal(body['max_completion_tokens'], undefined);
    assert.equal(sent.headers.authorization, undefined, 'a keyless channel sends no credential');
  });

  test('OpenAI, Anthropic and Gemini presets against a second Gatehouse: models fetched, a chat answered, a bad key fails clearly', async () => {
    for (const id of ['openai', 'anthropic', 'gemini']) {
      const preset = presetById(id)!;
      const base = preset.kind === 'openai' ? `${upstream.url}/v1` : upstream.url;
      const created = await admin('POST', '/channels', { ...presetInput(preset, `sim-${id}`), base_url: base, key: upstream.token });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const channel = created.body as ChannelSummary;
      if (id === 'openai') assert.equal(channel.compat_profile, 'openai');

      const listed = await admin('POST', `/channels/${channel.id}/models`, {});
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok((listed.body.models as string[]).includes('sim-chat'), `${id}: ${JSON.stringify(listed.body.models)}`);
      assert.equal((listed.body.channel as ChannelSummary).models, channel.models, 'without save the channel is unchanged');

      const tested = (await admin('POST', `/channels/${channel.id}/test`, { model: 'sim-chat' })).body as ChannelTestResult;
      assert.equal(tested.ok, true, `${id}: ${JSON.stringify(tested)}`);
      assert.equal(tested.model, 'sim-chat');
      assert.ok((tested.answer ?? '').length > 0, `${id}: the answer's first words are shown`);

      await admin('PUT', `/channels/${channel.id}`, { key: 'sk-wrong-key-for-the-test-0000' });
      const refused = (await admin('POST', `/channels/${channel.id}/test`, { model: 'sim-chat' })).body as ChannelTestResult;
      assert.equal(refused.ok, false, id);
      assert.match(refused.message, /^HTTP 401: /, id);
      assert.ok(!refused.message.includes('sk-wrong-key-for-the-test-0000'), 'the key never comes back');
      const failedFetch = await admin('POST', `/channels/${channel.id}/models`, {});
      assert.equal(failedFetch.status, 502);
      assert.match(JSON.stringify(failedFetch.body), /HTTP 401/);
      await admin('PUT', `/channels/${channel.id}`, { key: upstream.token });
    }
  });

  test('Test all tests every channel and answers a row with its latency each; a dead one fails without stopping the others', async () => {
    const dead = await ollamaStandIn();
    await dead.close();
    await admin('POST', '/channels', { name: 'gone', kind: 'openai', base_url: `${dead.url}/v1`, models: 'm' });
    const all = await admin('POST', '/channels/test-all');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    const rows = all.body as ChannelTestRow[];
    const channels = (await admin('GET', '/channels')).body as ChannelSummary[];
    assert.deepEqual(
      rows.map((row) => row.name),
      channels.map((item) => item.name),
    );
    for (const row of rows) {
      assert.equal(typeof row.latency_ms, 'number');
      assert.equal(row.ok, row.name !== 'gone', `${row.name}: ${row.message}`);
    }
    assert.match(rows.find((row) => row.name === 'gone')!.message, /cannot reach .*ECONNREFUSED/);
  });
});

// Compatibility profiles of openai channels: what a stand-in OpenAI-compatible server receives from translated and passed-through calls, per profile, set by the admin API and the CLI.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { runCli } from '../helpers/cli.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import { chatCompletion } from '../helpers/upstream-answers.ts';

/** A chat completion as any OpenAI-compatible server answers it. */
const ANSWER = chatCompletion('llama3', 'ok', { id: 'chatcmpl-compat', tokens: [3, 1] });

describe('compatibility profiles of openai channels', () => {
  let upstream: HostileUpstream;
  let front: TestGateway;
  let channelId: string;
  let anthropic: Anthropic;
  let openai: OpenAI;

  const admin = (method: string, path: string, body?: unknown) =>
    request(`${front.url}/admin/api${path}`, method, { token: front.gateway.adminToken, ...(body !== undefined && { body }) });
  /** The body of the last request the stand-in server received. */
  const lastBody = () => JSON.parse(upstream.requests.at(-1)!.body.toString('utf8')) as Record<string, any>;
  /** An Anthropic call with an output limit, a system prompt, one tool without parallel calls and a thinking budget. */
  const anthropicCall = () =>
    anthropic.messages.create({
      model: 'llama3',
      max_tokens: 123,
      system: 'Be terse.',
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [{ name: 'lookup', description: 'Looks up', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: 'hello' }],
    });

  before(async () => {
    upstream = await hostileUpstream((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
    });
    front = await startGateway();
    // A local server on loopback, no key: as a user adds Ollama.
    const added = await admin('POST', '/channels', { name: 'local', kind: 'openai', base_url: `${upstream.url}/v1`, models: '*' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    channelId = added.body.id;
    anthropic = new Anthropic({ baseURL: front.url, apiKey: front.token, maxRetries: 0 });
    openai = new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 });
  });
  after(async () => {
    await front?.stop();
    await upstream?.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  test('a loopback channel is a compatible server: an Anthropic max_tokens arrives as max_tokens, without the fields it does not read', async () => {
    const listed = await admin('GET', '/channels');
    const summary = listed.body.find((item: { id: string }) => item.id === channelId);
    assert.equal(summary.compat, null, 'no profile was set');
    assert.equal(summary.compat_profile, 'compatible', 'the base URL chose it');

    const answer = await anthropicCall();
    assert.equal(answer.content[0]?.type === 'text' && answer.content[0].text, 'ok');
    const sent = lastBody();
    assert.equal(sent.max_tokens, 123);
    assert.equal('max_completion_tokens' in sent, false);
    assert.deepEqual(sent.messages[0], { role: 'system', content: 'Be terse.' });
    assert.equal('parallel_tool_calls' in sent, false);
    assert.equal('reasoning_effort' in sent, false);
  });

  test('set to openai through the admin API, the same call sends max_completion_tokens, parallel_tool_calls and reasoning_effort', async () => {
    const updated = await admin('PUT', `/channels/${channelId}`, { compat: 'openai' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.compat, 'openai');
    assert.equal(updated.body.compat_profile, 'openai');
    try {
      await anthropicCall();
      const sent = lastBody();
      assert.equal(sent.max_completion_tokens, 123);
      assert.equal('max_tokens' in sent, false);
      assert.equal(sent.parallel_tool_calls, false);
      assert.equal(sent.reasoning_effort, 'medium');
    } finally {
      const back = await admin('PUT', `/channels/${channelId}`, { compat: 'auto' });
      assert.equal(back.body.compat, null);
    }
  });

  test('an OpenAI client passed through to a compatible server: max_completion_tokens becomes max_tokens, developer becomes system', async () => {
    await openai.chat.completions.create({
      model: 'llama3',
      max_completion_tokens: 77,
      parallel_tool_calls: false,
      reasoning_effort: 'low',
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
      messages: [
        { role: 'developer', content: 'Be terse.' },
        { role: 'user', content: 'hello' },
      ],
    });
    const sent = lastBody();
    assert.equal(sent.max_tokens, 77);
    assert.equal('max_completion_tokens' in sent, false);
    assert.deepEqual(sent.messages[0], { role: 'system', content: 'Be terse.' });
    assert.equal('parallel_tool_calls' in sent, false);
    assert.equal('reasoning_effort' in sent, false);
    assert.equal(sent.tools.length, 1, 'the rest of the body went through');
  });

  test('a stream to a compatible server still asks for usage (stream_options): Ollama, llama.cpp and vLLM read include_usage', async () => {
    upstream.handle((_, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = {
        ...ANSWER,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
      };
      delete (chunk as Record<string, unknown>)['usage'];
      response.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    });
    try {
      const stream = await anthropic.messages.create({
        model: 'llama3',
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      });
      for await (const event of stream) void event;
      const sent = lastBody();
      assert.deepEqual(sent.stream_options, { include_usage: true });
      assert.equal(sent.max_tokens, 50);
    } finally {
      upstream.handle((_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER)));
    }
  });
});

describe('gatehouse channel --compat', () => {
  const dirs = tempDirs();

  test('add and update set the profile, auto clears it, and a wrong value is refused naming the flag', () => {
    const dataDir = dirs.fresh();
    const common = ['--data-dir', dataDir, '--secrets', 'none'];
    const list = () =>
      (JSON.parse(runCli(['channel', 'list', '--json', ...common]).stdout) as any[]).find((item) => item.name === 'ollama');
    const added = runCli([
      'channel',
      'add',
      '--name',
      'ollama',
      '--kind',
      'openai',
      '--base-url',
      'http://127.0.0.1:11434/v1',
      '--compat',
      'openai',
      ...common,
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(list().compat, 'openai');
    assert.equal(list().compat_profile, 'openai');

    const cleared = runCli(['channel', 'update', 'ollama', '--compat', 'auto', ...common]);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.equal(list().compat, null);
    assert.equal(list().compat_profile, 'compatible');
    assert.match(runCli(['channel', 'list', ...common]).stdout, /compat auto \(compatible\)/);

    const wrong = runCli(['channel', 'update', 'ollama', '--compat', 'ollama', ...common]);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /--compat must be one of auto, openai, compatible/);
  });

  test('the base URL chooses: api.openai.com is openai, any other host compatible', () => {
    const dataDir = dirs.fresh();
    const common = ['--data-dir', dataDir, '--secrets', 'none'];
    assert.equal(
      runCli(['channel', 'add', '--name', 'official', '--kind', 'openai', '--base-url', 'https://api.openai.com/v1', ...common]).code,
      0,
    );
    assert.equal(
      runCli(['channel', 'add', '--name', 'vllm', '--kind', 'openai', '--base-url', 'https://vllm.example.com/v1', ...common]).code,
      0,
    );
    const items = JSON.parse(runCli(['channel', 'list', '--json', ...common]).stdout) as { name: string; compat_profile: string }[];
    assert.equal(items.find((item) => item.name === 'official')?.compat_profile, 'openai');
    assert.equal(items.find((item) => item.name === 'vllm')?.compat_profile, 'compatible');
  });
});

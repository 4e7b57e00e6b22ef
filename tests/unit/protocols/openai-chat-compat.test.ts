// Unit tests of compatibility profiles: which profile a base URL gives, and how a chat completions body is fitted to a compatible server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compatOfChannel } from '../../../shared/channels.ts';
import { fitChatBody } from '../../../electron/gateway/protocols/openai/outbound/chat-compat.ts';

describe('compatOfChannel', () => {
  test("OpenAI's and Azure OpenAI's hosts are openai; every other host is compatible; a setting wins", () => {
    assert.equal(compatOfChannel('https://api.openai.com/v1', null), 'openai');
    assert.equal(compatOfChannel('https://my-res.openai.azure.com/openai/v1', null), 'openai');
    assert.equal(compatOfChannel('https://my-res.services.ai.azure.com/openai/v1', null), 'openai');
    assert.equal(compatOfChannel('http://127.0.0.1:11434/v1', null), 'compatible');
    assert.equal(compatOfChannel('https://openrouter.ai/api/v1', null), 'compatible');
    assert.equal(compatOfChannel('https://api.openai.com.evil.example/v1', null), 'compatible');
    assert.equal(compatOfChannel('http://127.0.0.1:11434/v1', 'openai'), 'openai');
    assert.equal(compatOfChannel('https://api.openai.com/v1', 'compatible'), 'compatible');
  });
});

describe('fitChatBody', () => {
  test('openai leaves a body as it is', () => {
    const body = { max_completion_tokens: 5, parallel_tool_calls: false, messages: [{ role: 'developer', content: 'x' }] };
    assert.equal(fitChatBody(body, 'openai'), false);
    assert.deepEqual(body, { max_completion_tokens: 5, parallel_tool_calls: false, messages: [{ role: 'developer', content: 'x' }] });
  });

  test("compatible: the client's own max_tokens wins over max_completion_tokens, and an untouched body is reported unchanged", () => {
    const both: Record<string, unknown> = { max_tokens: 9, max_completion_tokens: 5 };
    assert.equal(fitChatBody(both, 'compatible'), true);
    assert.deepEqual(both, { max_tokens: 9 });
    const plain = {
      model: 'm',
      max_tokens: 3,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    };
    assert.equal(fitChatBody(plain, 'compatible'), false);
    assert.deepEqual(plain.stream_options, { include_usage: true });
  });

  test('compatible: reasoning fields dropped, developer messages become system with their content kept', () => {
    const body: Record<string, unknown> = {
      reasoning_effort: 'high',
      reasoning: { effort: 'high' },
      messages: [{ role: 'developer', content: [{ type: 'text', text: 'rules' }], name: 'd' }, null],
    };
    assert.equal(fitChatBody(body, 'compatible'), true);
    assert.deepEqual(body, { messages: [{ role: 'system', content: [{ type: 'text', text: 'rules' }], name: 'd' }, null] });
  });
});

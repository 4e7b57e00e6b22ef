// Unit tests of the Logs page's assembled stream text: each protocol's events, a JSON array stream, a cut recording, non-streams.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assembledText } from '../../../renderer/src/features/logs/stream-text.ts';

const streamOf = (text: string, truncated = false) => ({
  stream: true,
  response: { contentType: 'text/event-stream', bytes: text.length, text, truncated },
});
const sse = (...events: unknown[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n';

describe('assembled stream text', () => {
  test('OpenAI chat (first choice only) and completions', () => {
    const chat = sse(
      { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
      {
        choices: [
          { index: 0, delta: { content: 'Hel' } },
          { index: 1, delta: { content: 'other' } },
        ],
      },
      { choices: [{ index: 0, delta: { content: 'lo' } }] },
    );
    assert.deepEqual(assembledText(streamOf(chat)), { text: 'Hello', cut: false });
    assert.equal(assembledText(streamOf(sse({ choices: [{ index: 0, text: 'a' }] }, { choices: [{ index: 0, text: 'b' }] })))?.text, 'ab');
  });

  test('Responses, Anthropic and Gemini events', () => {
    const responses = `event: response.output_text.delta\n${sse({ type: 'response.output_text.delta', delta: 'Hi ' }, { type: 'response.output_text.delta', delta: 'there' })}`;
    assert.equal(assembledText(streamOf(responses))?.text, 'Hi there');
    const anthropic = sse(
      { type: 'message_start', message: {} },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Bon' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a"' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'jour' } },
    );
    assert.equal(assembledText(streamOf(anthropic))?.text, 'Bonjour');
    const gemini = [
      { candidates: [{ content: { parts: [{ text: 'Ni' }] } }] },
      { candidates: [{ content: { parts: [{ text: 'hao' }] } }] },
    ];
    assert.equal(assembledText(streamOf(sse(...gemini)))?.text, 'Nihao');
    assert.equal(assembledText(streamOf(JSON.stringify(gemini)))?.text, 'Nihao', 'the JSON array stream');
  });

  test('a cut recording says so; a malformed frame is skipped; a non-stream or a body not kept has none', () => {
    const cut = `${sse({ choices: [{ index: 0, delta: { content: 'kept' } }] })}data: {"choices":[{"index":0,"delta":{"cont`;
    assert.deepEqual(assembledText(streamOf(cut, true)), { text: 'kept', cut: true });
    assert.equal(assembledText({ ...streamOf('{}'), stream: false }), null);
    assert.equal(assembledText({ stream: true, response: { contentType: null, bytes: 10, text: null, truncated: false } }), null);
  });
});

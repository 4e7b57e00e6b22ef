// Unit tests of renaming a model back in relayed answers: per SSE event and per JSON-array element whatever the chunking, other fields and events untouched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anthropicKind } from '../../../electron/gateway/providers/relay/anthropic/kind.ts';
import { geminiKind } from '../../../electron/gateway/providers/relay/gemini/kind.ts';
import { openaiKind } from '../../../electron/gateway/providers/relay/openai/kind.ts';
import { UsageTap } from '../../../electron/gateway/providers/relay/usage-tap.ts';
import { throughTap } from '../../helpers/relay.ts';
import { countTokens } from '../../../electron/gateway/protocols/neutral/tokens.ts';

const through = throughTap;

test('OpenAI chunks get the caller name back, split anywhere; [DONE] and the text are untouched', () => {
  const chunk = (text: string) => JSON.stringify({ model: 'gpt-4o-mini-2024', choices: [{ index: 0, delta: { content: text } }] });
  const stream = `data: ${chunk('Hé')}\n\ndata: ${chunk('llo "x"')}\n\ndata: [DONE]\n\n`;
  for (const size of [1, 4, 10_000]) {
    const tap = new UsageTap(openaiKind, 'sse', false, 'fast');
    assert.equal(through(tap, stream, size), stream.replaceAll('gpt-4o-mini-2024', 'fast'));
    assert.equal(tap.relayed().delivered.tokens, countTokens('Héllo "x"'));
  }
});

test("Anthropic's message_start keeps its event line and gets the caller name; a whole message too", () => {
  const start = JSON.stringify({ type: 'message_start', message: { model: 'claude-x', usage: { input_tokens: 3 } } });
  const ping = 'event: ping\ndata: {"type": "ping"}\n\n';
  const tap = new UsageTap(anthropicKind, 'sse', false, 'mine');
  assert.equal(
    through(tap, `event: message_start\ndata: ${start}\n\n${ping}`, 5),
    `event: message_start\ndata: ${start.replace('claude-x', 'mine')}\n\n${ping}`,
  );
  const whole = new UsageTap(anthropicKind, 'json', false, 'mine');
  const message = {
    type: 'message',
    model: 'claude-x',
    content: [{ type: 'text', text: 'ok' }],
    usage: { input_tokens: 4, output_tokens: 2 },
  };
  assert.deepEqual(JSON.parse(through(whole, JSON.stringify(message), 7)), { ...message, model: 'mine' });
  assert.equal(whole.usage.outputTokens, 2);
});

test('a Gemini JSON array is renamed element by element as each completes, braces inside strings included', () => {
  const item = (text: string) => ({ candidates: [{ content: { parts: [{ text }] } }], modelVersion: 'gemini-up' });
  const array = `[${JSON.stringify(item('a {[ "q" \\ '))},\n${JSON.stringify({ ...item('b'), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } })}]`;
  for (const size of [1, 3, 10_000]) {
    const tap = new UsageTap(geminiKind, 'json', false, 'mine');
    const passed = through(tap, array, size);
    assert.deepEqual(
      (JSON.parse(passed) as { modelVersion: string }[]).map((element) => element.modelVersion),
      ['mine', 'mine'],
    );
    assert.deepEqual([tap.usage.inputTokens, tap.usage.outputTokens, tap.relayed().delivered.tokens], [5, 2, countTokens('a {[ "q" \\ b')]);
  }
  // The first element goes out before the array ends: nothing waits for the whole stream.
  const tap = new UsageTap(geminiKind, 'json', false, 'mine');
  const first = new TextDecoder().decode(tap.pass(new TextEncoder().encode(array.slice(0, array.indexOf(',\n') + 1))));
  assert.match(first, /^\[\{.*"modelVersion":"mine"\}$/);
});

test('without a rename, answers pass byte for byte', () => {
  const body = '{ "model" : "gpt-4o",  "choices": [] }';
  assert.equal(through(new UsageTap(openaiKind, 'json', false), body, 3), body);
});

// Unit tests of the usage bounds: reported counts within what the request and the answer can hold are believed; others are replaced by the estimate, and named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest } from '../../../electron/gateway/protocols/neutral/chat.ts';
import {
  DEFAULT_OUTPUT_BOUND,
  HELD_CONTEXT_TOKENS,
  INPUT_SLACK_TOKENS,
  MEDIA_PART_TOKENS,
  boundUsage,
  usageBoundOf,
} from '../../../electron/gateway/services/usage-bounds.ts';

const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', turns: [{ role: 'user', text: 'hi' }], ...extra });
const estimate = { input: () => 7, output: () => 3 };

test('the input bound is the request bytes, each image and the slack; the output bound the answer and the asked limit per choice', () => {
  assert.deepEqual(usageBoundOf({ bytes: 1000, chats: () => [chat({ maxTokens: 50, n: 2 })] }, 400), {
    input: 1000 + INPUT_SLACK_TOKENS,
    output: 400 + 100,
  });
  const withImage = chat({ turns: [{ role: 'user', text: '', parts: [{ type: 'image', url: 'https://example.com/a.png' }] }] });
  assert.equal(usageBoundOf({ bytes: 100, chats: () => [withImage] }, 0).input, 100 + MEDIA_PART_TOKENS + INPUT_SLACK_TOKENS);
  assert.equal(usageBoundOf({ bytes: 100, chats: () => [chat()] }, 0).output, DEFAULT_OUTPUT_BOUND);
  assert.equal(
    usageBoundOf({ bytes: 100, chats: () => [chat()], heldContext: true }, 0).input,
    100 + INPUT_SLACK_TOKENS + HELD_CONTEXT_TOKENS,
  );
  assert.deepEqual(usageBoundOf(undefined, 0), { input: HELD_CONTEXT_TOKENS, output: HELD_CONTEXT_TOKENS });
});

test('plausible counts are kept as reported, without a note', () => {
  const bound = () => ({ input: 100, output: 50 });
  assert.deepEqual(boundUsage({ inputTokens: 100, outputTokens: 0 }, bound, estimate), { inputTokens: 100, outputTokens: 0 });
  // Absent counts are estimated, as before: the upstream said nothing to disbelieve.
  assert.deepEqual(boundUsage({}, bound, estimate), { inputTokens: 7, outputTokens: 3 });
});

test('counts that are huge, negative, fractional or no number are charged the estimate, and the note names them', () => {
  const bound = () => ({ input: 100, output: 50 });
  for (const [reported, named] of [
    [{ inputTokens: 1e300, outputTokens: 5 }, 'input tokens 1e+300'],
    [{ inputTokens: 5, outputTokens: 51 }, 'output tokens 51'],
    [{ inputTokens: -4, outputTokens: 5 }, 'input tokens -4'],
    [{ inputTokens: 5, outputTokens: 2.5 }, 'output tokens 2.5'],
    [{ inputTokens: Number.NaN, outputTokens: 5 }, 'input tokens NaN'],
    [{ inputTokens: 5, outputTokens: Number.POSITIVE_INFINITY }, 'output tokens Infinity'],
  ] as const) {
    const bounded = boundUsage(reported, bound, estimate);
    const kept = { inputTokens: reported.inputTokens, outputTokens: reported.outputTokens };
    assert.equal(bounded.inputTokens, named.startsWith('input') ? 7 : kept.inputTokens);
    assert.equal(bounded.outputTokens, named.startsWith('output') ? 3 : kept.outputTokens);
    assert.equal(bounded.note, `Upstream usage out of bounds (${named}); charged the estimate.`);
  }
});

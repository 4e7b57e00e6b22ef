// Unit tests of what a realtime response reserves: its input as its usage counts it, its output limit (or the default bound), and its longest spoken audio when it speaks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry } from '../../../electron/gateway/realtime/conversation.ts';
import { responseBound } from '../../../electron/gateway/realtime/response-hold.ts';
import { defaultSessionConfig, type SessionConfig } from '../../../electron/gateway/realtime/session-config.ts';
import { DEFAULT_OUTPUT_BOUND } from '../../../electron/gateway/services/usage-bounds.ts';

const said: Entry = { item: { type: 'message' }, turn: { role: 'user', text: 'tell me about lighthouses' } };
/** Ten seconds of user audio at 24 kHz, heard as two words: ten tokens a second. */
const heard: Entry = {
  item: { type: 'message' },
  turn: { role: 'user', text: 'hello there' },
  audio: new Int16Array(240_000),
  spoken: 'hello there',
};
const text: SessionConfig = { ...defaultSessionConfig('sim-realtime'), outputModalities: ['text'] };

test('a text response reserves its input and its max_output_tokens, or the default bound when it has none', () => {
  const limited = responseBound({ ...text, maxOutputTokens: 20 }, [said], 300);
  assert.equal(limited.outputTokens, 20);
  assert.ok(limited.inputTokens > 0);
  assert.equal(responseBound({ ...text, maxOutputTokens: 'inf' }, [said], 300).outputTokens, DEFAULT_OUTPUT_BOUND);
});

test('heard audio counts at ten tokens a second, as its usage will', () => {
  const withAudio = responseBound({ ...text, maxOutputTokens: 20 }, [heard], undefined);
  assert.ok(withAudio.inputTokens >= 100, `input ${withAudio.inputTokens}`);
});

test('a spoken response adds the tokens of the longest answer its voice speaks (20 a second); a model without a voice adds none', () => {
  const spoken: SessionConfig = { ...text, outputModalities: ['audio'], maxOutputTokens: 20 };
  assert.equal(responseBound(spoken, [said], 300).outputTokens, 20 + 300 * 20);
  assert.equal(responseBound(spoken, [said], undefined).outputTokens, 20);
});

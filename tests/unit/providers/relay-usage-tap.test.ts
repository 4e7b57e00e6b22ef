// Unit tests of relay's usage tap and Retry-After reading: usage read from events split anywhere, the hidden usage event dropped, nothing else changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryAfterMs } from '../../../electron/gateway/providers/relay/failover.ts';
import { anthropicKind } from '../../../electron/gateway/providers/relay/anthropic/kind.ts';
import { openaiKind } from '../../../electron/gateway/providers/relay/openai/kind.ts';
import { JSON_TAP_LIMIT, UNREAD_EVENT_BYTES, UsageTap } from '../../../electron/gateway/providers/relay/usage-tap.ts';
import { geminiKind } from '../../../electron/gateway/providers/relay/gemini/kind.ts';
import { throughTap } from '../../helpers/relay.ts';
import { countTokens } from '../../../electron/gateway/protocols/neutral/tokens.ts';
import type { RelayedUsage } from '../../../electron/gateway/providers/types.ts';

const chunk = (text: string) => JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] });
const usageChunk = JSON.stringify({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } });
const stream = `data: ${chunk('Hel')}\n\ndata: ${chunk('lo')}\n\ndata: ${usageChunk}\n\ndata: [DONE]\n\n`;

const through = throughTap;
/** The usage a tap reports, as plain figures: those it read, and the tokens delivered (counted when asked for). */
const figures = (usage: RelayedUsage) => ({ ...usage, delivered: { tokens: usage.delivered.tokens } });

test('an OpenAI stream passes untouched when the client asked for usage, and its usage is read whatever the chunking', () => {
  for (const size of [1, 5, 64, 10_000]) {
    const tap = new UsageTap(openaiKind, 'sse', false);
    assert.equal(through(tap, stream, size), stream);
    assert.deepEqual(figures(tap.relayed()), { inputTokens: 7, outputTokens: 3, delivered: { tokens: countTokens('Hello') } });
  }
});

test('whole events pass as the very bytes that came; events split anywhere, inside a character too, pass byte for byte', () => {
  const wide = `data: ${chunk('héllo 日本 🎉')}\n\ndata: ${chunk('\n\n')}\n\ndata: ${usageChunk}\n\n`;
  const bytes = Buffer.from(wide);
  const events = wide.split(/(?<=\n\n)/).map((event) => Buffer.from(event));
  const whole = new UsageTap(openaiKind, 'sse', false);
  for (const event of events) assert.equal(whole.pass(event), event, 'no copy of a whole event');
  assert.equal(whole.relayed().delivered.tokens, countTokens('héllo 日本 🎉\n\n'));
  for (let size = 1; size <= 12; size += 1) {
    const tap = new UsageTap(openaiKind, 'sse', false);
    const out: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += size) out.push(tap.pass(bytes.subarray(at, at + size)));
    out.push(tap.end());
    assert.deepEqual(Buffer.concat(out), bytes, `split every ${size} bytes`);
    assert.equal(tap.usage.outputTokens, 3);
  }
});

test('a character split right after a whole event is passed whole, even from an upstream that starts a line with it', () => {
  const text = `data: ${chunk('a')}\n\né: not a field\n\ndata: ${usageChunk}\n\n`;
  const bytes = Buffer.from(text);
  // Cut after the first of the two bytes of é.
  const cut = Buffer.byteLength(text.slice(0, text.indexOf('é'))) + 1;
  const tap = new UsageTap(openaiKind, 'sse', false);
  const out = [tap.pass(bytes.subarray(0, cut)), tap.pass(bytes.subarray(cut)), tap.end()];
  assert.deepEqual(Buffer.concat(out), bytes);
  assert.equal(tap.usage.inputTokens, 7);
});

test('the usage chunk the client did not ask for is dropped, every other event kept as it was', () => {
  for (const size of [1, 7, 10_000]) {
    const tap = new UsageTap(openaiKind, 'sse', true);
    assert.equal(through(tap, stream, size), stream.replace(`data: ${usageChunk}\n\n`, ''));
    assert.equal(tap.usage.inputTokens, 7);
  }
});

test('a cut Anthropic stream keeps the input of message_start and the text delivered, without output usage', () => {
  const tap = new UsageTap(anthropicKind, 'sse', false);
  const start = { type: 'message_start', message: { usage: { input_tokens: 12, output_tokens: 1 } } };
  const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi there' } };
  through(tap, `event: message_start\ndata: ${JSON.stringify(start)}\n\nevent: content_block_delta\ndata: ${JSON.stringify(delta)}\n\n`, 3);
  assert.equal(tap.usage.inputTokens, 12);
  assert.equal(tap.relayed().delivered.tokens, countTokens('Hi there'));
});

test('a whole JSON answer is read at its end', () => {
  const tap = new UsageTap(anthropicKind, 'json', false);
  through(
    tap,
    JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 4, output_tokens: 2 } }),
    9,
  );
  assert.deepEqual(figures(tap.relayed()), { inputTokens: 4, outputTokens: 2, delivered: { tokens: countTokens('ok') } });
});

test('Retry-After is read from retry-after-ms, seconds or a date', () => {
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '1' })), 250);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
  const later = retryAfterMs(new Headers({ 'retry-after': new Date(Date.now() + 60_000).toUTCString() }))!;
  assert.ok(later > 50_000 && later <= 60_000);
  assert.equal(retryAfterMs(new Headers({})), undefined);
});

test('a Gemini JSON array stream passes byte for byte and its usage is read element by element, however long the stream', () => {
  const element = (text: string, usage?: object) => JSON.stringify({ candidates: [{ content: { parts: [{ text }] } }], ...usage });
  const long = 'word '.repeat(200_000);
  const last = element('end', { usageMetadata: { promptTokenCount: 6, candidatesTokenCount: 9 } });
  const array = `[${Array.from({ length: 10 }, () => element(long)).join(',\r\n')},\r\n${last}]`;
  assert.ok(array.length > JSON_TAP_LIMIT, 'longer than a JSON answer is kept whole');
  const tap = new UsageTap(geminiKind, 'json', false);
  assert.equal(through(tap, array, 64 * 1024), array);
  assert.deepEqual([tap.usage.inputTokens, tap.usage.outputTokens], [6, 9]);
});

test('text-only events are read only when the text delivered is asked for: a stream that reports its usage parses none of them', () => {
  let reads = 0;
  const counted: typeof openaiKind = { ...openaiKind, read: (data, usage, hide) => ((reads += 1), openaiKind.read(data, usage, hide)) };
  const tap = new UsageTap(counted, 'sse', false);
  assert.equal(through(tap, stream, 7), stream);
  assert.equal(reads, 1, 'only the usage chunk was read');
  assert.deepEqual([tap.usage.inputTokens, tap.usage.outputTokens], [7, 3]);
  const usage = tap.relayed();
  assert.equal(reads, 1, 'settling the usage reads nothing more');
  assert.equal(usage.delivered.tokens, countTokens('Hello'));
  assert.equal(reads, 3, 'asked for, the text events are read, once');
  assert.equal(usage.delivered.tokens, countTokens('Hello'));
  assert.equal(reads, 3);
});

test('a copy of the relayed usage (a spread, as the audio and embeddings charges make) keeps the text it delivered', () => {
  const tap = new UsageTap(openaiKind, 'sse', false);
  through(tap, `data: ${chunk('Hel')}\n\ndata: ${chunk('lo')}\n\ndata: [DONE]\n\n`, 64);
  const copy = { ...tap.relayed(), outputTokens: undefined };
  assert.equal(copy.delivered.tokens, countTokens('Hello'));
});

test('the text delivered counts the same whichever events are put off: words split across events, escapes, a word that must be read, a long stream', () => {
  const pieces = ['Hel', 'lo wor', 'ld, the ', 'response', ' is \u00e9t\u00e9 🎉', '日本', 'end'];
  // JSON.stringify writes é and 🎉 as they are; one event spells its text with \u escapes, as some upstreams do.
  const escaped = (text: string) =>
    chunk(text).replace(/[^\x20-\x7e]/gu, (char) =>
      [...char].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    );
  const events = pieces.map((text, index) => `data: ${index === 4 ? escaped(text) : chunk(text)}\n\n`).join('');
  for (const kind of [openaiKind, anthropicKind]) {
    const body =
      kind === openaiKind
        ? events
        : pieces
            .map(
              (text) =>
                `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`,
            )
            .join('');
    for (const size of [1, 9, 10_000]) {
      const tap = new UsageTap(kind, 'sse', false);
      assert.equal(through(tap, body, size), body);
      assert.equal(tap.relayed().delivered.tokens, countTokens(pieces.join('')), `every ${size} bytes`);
    }
  }
  // Past UNREAD_EVENT_BYTES the events put off are read at once, in order: the count is the same.
  const long = Array.from({ length: 6000 }, (_, index) => `word${index % 7} `);
  const tap = new UsageTap(openaiKind, 'sse', false);
  through(tap, long.map((text) => `data: ${chunk(text)}\n\n`).join(''), 4096);
  assert.ok(6000 * chunk('word0 ').length > UNREAD_EVENT_BYTES);
  assert.equal(tap.relayed().delivered.tokens, countTokens(long.join('')));
});

test('the text of an event read at once while others wait unread is counted after theirs, in the order the client got it', () => {
  // The space is spelled with a \u escape, so its event is read at once while "ab" waits unread: counted in the wrong
  // order, "ab" and "cd" would join into one word.
  const events = [chunk('ab'), chunk(' ').replace(' ', '\\u0020'), chunk('cd')].map((data) => `data: ${data}\n\n`).join('');
  for (const size of [1, 10_000]) {
    const tap = new UsageTap(openaiKind, 'sse', false);
    assert.equal(through(tap, events, size), events);
    assert.equal(tap.relayed().delivered.tokens, countTokens('ab cd'), `every ${size} bytes`);
  }
});

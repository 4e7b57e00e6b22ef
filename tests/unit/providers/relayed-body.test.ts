// Unit tests of a relayed answer's body: however it ends (read to the end, given up, the upstream breaking, or the scrub itself throwing) the upstream is stopped once and the usage settles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SecretScrubber } from '../../../shared/secret-scrub.ts';
import { MAX_SSE_EVENT_BYTES } from '../../../shared/sse-reader.ts';
import { openaiKind } from '../../../electron/gateway/providers/relay/openai/kind.ts';
import { RelayedBody } from '../../../electron/gateway/providers/relay/relayed-body.ts';
import type { RelayedUsage } from '../../../electron/gateway/providers/types.ts';
import { UsageTap } from '../../../electron/gateway/providers/relay/usage-tap.ts';

const encoder = new TextEncoder();

/** An upstream body of `chunks`, noting whether it was closed early. */
function upstream(chunks: string[]) {
  const seen = { closed: false };
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => {
      let index = 0;
      return {
        next: async () =>
          index < chunks.length ? { done: false, value: encoder.encode(chunks[index++]!) } : { done: true, value: undefined },
        return: async () => {
          seen.closed = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { source, seen };
}

function body(chunks: string[], scrubber: SecretScrubber | null = null) {
  const { source, seen } = upstream(chunks);
  let stops = 0;
  const relayed = new RelayedBody(source, scrubber, new UsageTap(openaiKind, 'other', false), { stop: () => (stops += 1) });
  return { relayed, seen, stops: () => stops };
}

test('read to the end: every byte passes, the upstream is stopped once and the usage counts the bytes', async () => {
  const { relayed, stops } = body(['abc', 'de']);
  const parts: string[] = [];
  for await (const chunk of relayed) parts.push(Buffer.from(chunk).toString());
  assert.equal(parts.join(''), 'abcde');
  assert.equal(stops(), 1);
  assert.equal((await relayed.usage).answerBytes, 5);
});

test('the scrub throwing mid-body: the error reaches the reader, the upstream is closed and stopped once, and the usage settles', async () => {
  const scrubber = new SecretScrubber([{ secret: 'sk-never-in-this-body-0000', hint: 'sk-…0000' }]);
  let calls = 0;
  const pass = scrubber.pass.bind(scrubber);
  scrubber.pass = (chunk) => {
    calls += 1;
    if (calls === 2) throw new Error('scrub failed');
    return pass(chunk);
  };
  const { relayed, seen, stops } = body(['first ', 'second ', 'third'], scrubber);
  const first = await relayed.next();
  assert.equal(Buffer.from(first.value as Uint8Array).toString(), 'first ');
  await assert.rejects(relayed.next(), /scrub failed/);
  assert.equal(seen.closed, true, 'the upstream body is closed');
  assert.equal(stops(), 1);
  const usage = await Promise.race([relayed.usage, new Promise((resolve) => setTimeout(() => resolve('unsettled'), 5_000))]);
  assert.notEqual(usage, 'unsettled', 'the usage settles');
  assert.deepEqual(await relayed.next(), { done: true, value: undefined }, 'a body that broke reads as ended');
});

/** A JSON answer's body (two chunks, as an upstream may send it) with its usage, through an OpenAI tap. */
function jsonBody() {
  const answer = JSON.stringify({ choices: [{ message: { content: 'Hello there' } }], usage: { prompt_tokens: 7, completion_tokens: 3 } });
  const { source } = upstream([answer.slice(0, 20), answer.slice(20)]);
  let stops = 0;
  const relayed = new RelayedBody(source, null, new UsageTap(openaiKind, 'json', false), { stop: () => (stops += 1) });
  return { relayed, answer, stops: () => stops };
}

test('a JSON answer passed as it came: its end reaches the reader before its usage is read, which then settles with the figures it carried', async () => {
  const { relayed, answer, stops } = jsonBody();
  let settled = false;
  void relayed.usage.then(() => (settled = true));
  const parts: string[] = [];
  let step = await relayed.next();
  for (; !step.done; step = await relayed.next()) parts.push(Buffer.from(step.value).toString());
  assert.equal(parts.join(''), answer);
  // The caller writes the answer's end in this turn; the usage (and so the charge) follows it.
  assert.equal(settled, false, 'the usage is not settled before the reader got the end');
  assert.equal(stops(), 1, 'the upstream is stopped at the end');
  const usage = await relayed.usage;
  assert.equal(usage.inputTokens, 7);
  assert.equal(usage.outputTokens, 3);
  assert.equal(usage.answerBytes, Buffer.byteLength(answer));
  assert.equal(stops(), 1);
});

test('a JSON answer given up right after its end: the usage is still read from it', async () => {
  const { relayed } = jsonBody();
  while (!(await relayed.next()).done);
  await relayed.return();
  const usage = await relayed.usage;
  assert.equal(usage.inputTokens, 7);
  assert.equal(usage.outputTokens, 3);
});

test('a JSON answer read once more after its end: the usage is still read from it, not settled empty', async () => {
  const { relayed } = jsonBody();
  while (!(await relayed.next()).done);
  assert.equal((await relayed.next()).done, true);
  const usage = await relayed.usage;
  assert.equal(usage.inputTokens, 7);
  assert.equal(usage.outputTokens, 3);
});

/** An upstream that already sent its whole answer (`chunks` joined): `wholeAtHand` gives it at once, as upstream-call.ts's handler does. */
function sentWhole(chunks: (string | Uint8Array)[]) {
  const seen = { reads: 0, closed: false };
  const bytes = Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk)));
  let taken = false;
  const source = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        seen.reads += 1;
        return { done: true as const, value: undefined };
      },
      return: async () => {
        seen.closed = true;
        return { done: true as const, value: undefined };
      },
      wholeAtHand: () => {
        if (taken) return new Uint8Array(0);
        taken = true;
        return bytes;
      },
    }),
  };
  return { source, seen };
}

test('an answer the upstream already sent whole is given at once, in one piece: the key scrubbed, the usage read from it, the upstream stopped once', async () => {
  const key = 'sk-live-whole-answer-1234';
  const answer = JSON.stringify({ choices: [{ message: { content: `echo ${key}` } }], usage: { prompt_tokens: 5, completion_tokens: 2 } });
  const { source, seen } = sentWhole([answer]);
  let stops = 0;
  const scrubber = new SecretScrubber([{ secret: key, hint: 'sk-…1234' }]);
  const relayed = new RelayedBody(source, scrubber, new UsageTap(openaiKind, 'json', false), { stop: () => (stops += 1) });
  const whole = relayed.atOnce();
  assert.ok(whole !== undefined, 'the whole answer is at hand');
  assert.equal(Buffer.from(whole).toString(), answer.replace(key, 'sk-…1234'));
  assert.deepEqual(await relayed.next(), { done: true, value: undefined }, 'nothing is left to read');
  assert.equal(seen.reads, 0, 'no read waited for the upstream');
  await relayed.return();
  const usage = await relayed.usage;
  assert.equal(usage.inputTokens, 5);
  assert.equal(usage.outputTokens, 2);
  assert.equal(usage.answerBytes, whole.length);
  assert.equal(stops, 1);
});

test('an answer sent whole that ends with the start of the key: the tail the scrubber held back comes out last, in the same piece', async () => {
  const key = 'sk-live-whole-answer-1234';
  const { source } = sentWhole([`audio ${key} bytes `, key.slice(0, 10)]);
  const scrubber = new SecretScrubber([{ secret: key, hint: 'sk-…1234' }]);
  const relayed = new RelayedBody(source, scrubber, new UsageTap(openaiKind, 'other', false), { stop: () => {} });
  const whole = relayed.atOnce();
  assert.ok(whole !== undefined);
  assert.equal(Buffer.from(whole).toString(), `audio sk-…1234 bytes ${key.slice(0, 10)}`);
  await relayed.return();
  assert.equal((await relayed.usage).answerBytes, whole.length);
});

test("a renamed JSON answer sent whole is given at once with the caller's model name", async () => {
  const answer = JSON.stringify({ model: 'upstream-model', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } });
  const { source } = sentWhole([answer]);
  const relayed = new RelayedBody(source, null, new UsageTap(openaiKind, 'json', false, 'my-model'), { stop: () => {} });
  const whole = relayed.atOnce();
  assert.ok(whole !== undefined);
  assert.equal(JSON.parse(Buffer.from(whole).toString()).model, 'my-model');
  await relayed.return();
  assert.equal((await relayed.usage).outputTokens, 1);
});

test("an answer sent whole that passes a cap is not given at once: what came before the cap is read, then the cap's error", async () => {
  const first = 'data: {"choices":[]}\n\n';
  const { source } = sentWhole([first, 'data: ', Buffer.alloc(MAX_SSE_EVENT_BYTES + 1, 0x78)]);
  let stops = 0;
  const relayed = new RelayedBody(source, null, new UsageTap(openaiKind, 'sse', false), { stop: () => (stops += 1) });
  assert.equal(relayed.atOnce(), undefined);
  const step = await relayed.next();
  assert.equal(Buffer.from(step.value as Uint8Array).toString(), first);
  await assert.rejects(relayed.next(), /stream event over 16 MiB/);
  assert.equal(stops, 1);
  assert.equal((await relayed.usage).answerBytes, first.length);
});

test('an upstream that has not ended gives nothing at once: the body is read as before', async () => {
  const { relayed } = jsonBody();
  assert.equal(relayed.atOnce(), undefined);
  const parts: string[] = [];
  for await (const chunk of relayed) parts.push(Buffer.from(chunk).toString());
  assert.equal(JSON.parse(parts.join('')).usage.prompt_tokens, 7);
});

test('a stream sent whole settles its usage when given at once, even if the body is never given back', async () => {
  const usageEvent = JSON.stringify({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 6 } });
  // Its last event has no blank line: the tap's end passes it, so the end is read in `atOnce`, not left for later.
  const { source } = sentWhole([`data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: ${usageEvent}\n\ndata: [DONE]`]);
  let stops = 0;
  const relayed = new RelayedBody(source, null, new UsageTap(openaiKind, 'sse', false), { stop: () => (stops += 1) });
  assert.ok(relayed.atOnce() !== undefined);
  const usage = await Promise.race([relayed.usage, new Promise((resolve) => setTimeout(() => resolve('unsettled'), 5_000))]);
  assert.notEqual(usage, 'unsettled', 'the usage settles');
  assert.equal((usage as RelayedUsage).outputTokens, 6);
  assert.equal(stops, 1);
});

test('a source that breaks while giving its whole answer: the error is thrown, the usage settles and the upstream is stopped once', async () => {
  const source = {
    [Symbol.asyncIterator]: () => ({
      next: async () => ({ done: true as const, value: undefined }),
      wholeAtHand: () => {
        throw new Error('the connection could not be resumed');
      },
    }),
  };
  let stops = 0;
  const relayed = new RelayedBody(source, null, new UsageTap(openaiKind, 'json', false), { stop: () => (stops += 1) });
  assert.throws(() => relayed.atOnce(), /could not be resumed/);
  // relay-reply.ts gives nothing back after a throw: the body must settle by itself.
  const usage = await Promise.race([relayed.usage, new Promise((resolve) => setTimeout(() => resolve('unsettled'), 5_000))]);
  assert.notEqual(usage, 'unsettled', 'the usage settles');
  assert.equal(stops, 1);
});

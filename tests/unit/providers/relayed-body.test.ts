// Unit tests of a relayed answer's body: however it ends (read to the end, given up, the upstream breaking, or the scrub itself throwing) the upstream is stopped once and the usage settles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SecretScrubber } from '../../../shared/secret-scrub.ts';
import { openaiKind } from '../../../electron/gateway/providers/relay/openai/kind.ts';
import { RelayedBody } from '../../../electron/gateway/providers/relay/relayed-body.ts';
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

// Integration tests of chat streamed as it is produced: a paced answer's first chunk leaves before the answer is finished, and a stream cut by the client is billed for what it delivered.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';
import { eventually } from '../helpers/eventually.ts';

/** A long user message that the echo model answers verbatim: 40 words, 40 stream pieces. */
const LONG = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
const BODY = { model: 'proof-echo', messages: [{ role: 'user' as const, content: LONG }], stream: true };

describe('chat streamed as produced', () => {
  const suite = useOpenAIGateway();
  const charges = () =>
    suite.gw.gateway.context.db
      .prepare("SELECT input_tokens, output_tokens FROM usage_records WHERE endpoint = '/v1/chat/completions' ORDER BY id")
      .all() as { input_tokens: number; output_tokens: number }[];
  const post = (signal?: AbortSignal) =>
    fetch(`${suite.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.gw.token}`, 'content-type': 'application/json', 'x-gatehouse-pace': '20' },
      body: JSON.stringify(BODY),
      ...(signal && { signal }),
    });
  /** Reads SSE frames off `response` until `enough` says stop; returns the frames read. */
  const readFrames = async (response: Response, enough: (frames: string[]) => boolean) => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const frames: string[] = [];
    while (!enough(frames)) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const parts = buffered.split('\n\n');
      buffered = parts.pop()!;
      frames.push(...parts);
    }
    return { frames, reader };
  };
  const contentFrames = (frames: string[]) => frames.filter((frame) => /"content":" ?word/.test(frame));

  test("a paced answer's first chunk reaches the client while the rest is still being produced", async () => {
    const before = charges().length;
    const response = await post();
    assert.equal(response.status, 200);
    const first = await readFrames(response, (frames) => contentFrames(frames).length >= 1);
    // The usage delta is the producer's last, and the call is charged when it is produced: not yet.
    assert.equal(charges().length, before, 'the answer is not produced to its end when its first chunk arrives');
    assert.ok(!first.frames.some((frame) => frame === 'data: [DONE]'), 'the stream is still open');
    const rest: string[] = [];
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await first.reader.read();
      if (done) break;
      rest.push(decoder.decode(value, { stream: true }));
    }
    const later = rest.join('').split('\n\n').filter(Boolean);
    assert.ok(contentFrames(later).length >= 30, `the later pieces came after the first: ${contentFrames(later).length}`);
    assert.equal(later.at(-1), 'data: [DONE]');
    assert.equal(charges().length, before + 1, 'charged once the answer was produced');
  });

  test('a stream the client cuts after a few chunks is billed for what was sent: less than the whole answer, more than nothing', async () => {
    const whole = (await suite.client.chat.completions.create({ ...BODY, stream: false })).usage!;
    const before = charges().length;
    const controller = new AbortController();
    const response = await post(controller.signal);
    await readFrames(response, (frames) => contentFrames(frames).length >= 4);
    controller.abort();
    const cut = await eventually(() => charges().length > before && charges().slice(before), 'the cut stream is charged');
    assert.equal(cut.length, 1, 'charged exactly once');
    assert.equal(cut[0]!.input_tokens, whole.prompt_tokens);
    assert.ok(cut[0]!.output_tokens > 0, 'the pieces sent are billed');
    assert.ok(cut[0]!.output_tokens < whole.completion_tokens, `${cut[0]!.output_tokens} of ${whole.completion_tokens} output tokens`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(charges().length, before + 1, 'and never a second time');
  });
});

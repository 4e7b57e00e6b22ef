// Test helper: cassettes as the recorder would file them (a chat exchange, an answer swapped), written with the cassette store.
import { createHash } from 'node:crypto';
import type { CassetteBody, HttpCassette } from '../../shared/cassette.ts';

/** An HTTP cassette before the store files it. */
export type HttpDraft = Omit<HttpCassette, 'format' | 'sequence'>;

/** A chat exchange as the recorder would file it: `text` is the answer the upstream gave. */
export function chatDraft(prompt: string, text: string, options: { channel?: string; stream?: boolean } = {}): HttpDraft {
  const body = { model: 'gpt-4o', messages: [{ role: 'user', content: prompt }] };
  const key = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return {
    kind: 'http',
    recording: {
      recordedAt: '2026-11-20T10:00:00.000+00:00',
      mode: options.channel ? 'relay' : 'simulate',
      ...(options.channel && { channel: options.channel, upstreamModel: 'gpt-4o-2024-08-06' }),
      protocol: 'openai',
    },
    request: { method: 'POST', path: '/v1/chat/completions', model: 'gpt-4o', body, normal: body, key, stream: options.stream ?? false },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { text: JSON.stringify({ choices: [{ message: { role: 'assistant', content: text } }] }) },
      durationMs: 420,
    },
    usage: { inputTokens: 9, outputTokens: 4 },
  };
}

/** `draft` answering with `body` instead. */
export function answering(draft: HttpDraft, body: CassetteBody): HttpDraft {
  return { ...draft, response: { ...draft.response, body } };
}

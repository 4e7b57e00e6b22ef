// Test helper: an upstream that echoes its channel key in every encoding (raw, JSON-escaped, percent-encoded, base64 at each alignment, split across writes) in headers, error bodies, answers, SSE and Gemini array streams, binary bodies and realtime frames, to prove a key scrub.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ReceivedRequest } from './hostile-upstream.ts';
import { base64Middles, escapedMix, percentMix } from './secret-encodings.ts';

/** The channel key, with the characters JSON (`\/`) and percent-encoding (`%2B`, `%2F`) treat specially. */
export const KEY = 'sk-proj-Hx7/Qz+Lk_9fE2-MnB4vR8tYwP0aS3dG';
/** Where a body's text holds the key split across two writes, the second half JSON-escaped. */
const SPLIT = '@split@';

/** Headers that echo the key in every encoding, sent with every answer. */
const ECHOING_HEADERS = {
  'openai-organization': KEY,
  'x-request-id': `req_${KEY}`,
  'request-id': Buffer.from(`id:${KEY}`).toString('base64'),
  'anthropic-organization-id': percentMix(KEY),
  'x-ratelimit-limit-requests': escapedMix(KEY),
};

type Wire = 'openai' | 'anthropic' | 'gemini';

/** What the upstream is asked: the wire (from the path), the outcome (the model's last part: ok, 400 or 500), whether it streams and how. */
function askedOf(received: ReceivedRequest): { wire: Wire; model: string; outcome: string; stream: boolean; sse: boolean } {
  const url = new URL(received.url, 'http://x');
  const gemini = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
  if (gemini) {
    const stream = gemini[2] === 'streamGenerateContent';
    const model = decodeURIComponent(gemini[1]!);
    return { wire: 'gemini', model, outcome: model.split('-').at(-1)!, stream, sse: stream && url.searchParams.get('alt') === 'sse' };
  }
  const body = JSON.parse(received.body.toString('utf8')) as { model: string; stream?: boolean };
  const wire = url.pathname.endsWith('/v1/messages') ? 'anthropic' : 'openai';
  return { wire, model: body.model, outcome: body.model.split('-').at(-1)!, stream: body.stream === true, sse: body.stream === true };
}

/** A JSON text whose `@raw@` and `@escaped@` stand for the key as it is and JSON-escaped (so JSON.stringify does not escape the escapes). */
export function withKey(value: unknown): string {
  return JSON.stringify(value).replaceAll('@raw@', KEY).replaceAll('@escaped@', escapedMix(KEY));
}

/** The text of an answer: the key raw and escaped. */
export const SAID = 'said @raw@ and @escaped@';
/** The text of a streamed piece: the key split across two writes, its second half escaped. */
const STREAMED = `streamed ${KEY.slice(0, 15)}${SPLIT} ok`;

function errorBody(wire: Wire, status: number, message: string): string {
  if (wire === 'anthropic')
    return withKey({ type: 'error', error: { type: status === 400 ? 'invalid_request_error' : 'api_error', message } });
  if (wire === 'gemini') return withKey({ error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL' } });
  return withKey({ error: { message, type: status === 400 ? 'invalid_request_error' : 'server_error', code: null } });
}

function answerBody(wire: Wire, model: string): string {
  if (wire === 'anthropic')
    return withKey({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: SAID }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 5 },
    });
  if (wire === 'gemini')
    return withKey({
      candidates: [{ content: { role: 'model', parts: [{ text: SAID }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
      modelVersion: model,
    });
  return withKey({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: SAID }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  });
}

/** The events of a streamed answer (SSE, or Gemini's JSON array), as text with SPLIT where the key is cut. */
function streamBody(wire: Wire, model: string, sse: boolean): string {
  const data = (event: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${withKey(event)}\n\n`;
  if (wire === 'anthropic') {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null };
    return [
      data({ type: 'message_start', message: { ...message, usage: { input_tokens: 3, output_tokens: 0 } } }, 'message_start'),
      data({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      data({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: STREAMED } }, 'content_block_delta'),
      data({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      data(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
        'message_delta',
      ),
      data({ type: 'message_stop' }, 'message_stop'),
    ].join('');
  }
  if (wire === 'gemini') {
    const pieces = [
      { candidates: [{ content: { role: 'model', parts: [{ text: STREAMED }] }, index: 0 }], modelVersion: model },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '.' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
        modelVersion: model,
      },
    ];
    return sse ? pieces.map((piece) => data(piece)).join('') : `[${pieces.map((piece) => withKey(piece)).join(',\r\n')}]`;
  }
  const chunk = (delta: object, finish: string | null, usage?: object) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage && { usage }),
  });
  return [
    data(chunk({ role: 'assistant', content: '' }, null)),
    data(chunk({ content: STREAMED }, null)),
    data(chunk({}, 'stop', { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })),
    'data: [DONE]\n\n',
  ].join('');
}

/** Writes `text` in two pieces cut at SPLIT, the second starting with the key's second half JSON-escaped; the first is flushed before the second is written. */
async function writeSplit(response: ServerResponse, text: string): Promise<void> {
  const [head, tail] = text.split(SPLIT) as [string, string];
  await new Promise<void>((resolve) => response.write(head, () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  response.end(`${escapedMix(KEY.slice(15))}${tail}`);
}

/**
 * The hostile upstream: every answer echoes the key in its headers and body, as the model's last part says (ok, 400, 500).
 * Its passed-on client error is a 400: a refused key (401) never reaches the caller (see relay-retry-hint.test.ts).
 */
export async function echoingAnswer(received: ReceivedRequest, response: ServerResponse): Promise<void> {
  if (received.url.endsWith('/audio/speech')) {
    // A binary body: the key raw and in base64 at each alignment, cut in the middle of the raw one.
    response.writeHead(200, { ...ECHOING_HEADERS, 'content-type': 'audio/wav' });
    const bytes = Buffer.from(`RIFF\u0000${KEY}\u0001${base64Middles(KEY).join('\u0002')}\u0003`, 'latin1');
    await new Promise<void>((resolve) => response.write(bytes.subarray(0, 20), () => resolve()));
    response.end(bytes.subarray(20));
    return;
  }
  const { wire, model, outcome, stream, sse } = askedOf(received);
  if (outcome === '400' || outcome === '500') {
    const status = Number(outcome);
    const message = status === 400 ? 'Incorrect API key provided: @escaped@' : 'upstream broke with key @raw@ and %KEY%';
    response.writeHead(status, { ...ECHOING_HEADERS, 'content-type': 'application/json' });
    response.end(errorBody(wire, status, message).replace('%KEY%', percentMix(KEY)));
    return;
  }
  const type = !stream ? 'application/json' : sse ? 'text/event-stream' : 'application/json';
  response.writeHead(200, { ...ECHOING_HEADERS, 'content-type': type });
  if (!stream) response.end(answerBody(wire, model));
  else await writeSplit(response, streamBody(wire, model, sse));
}

/** A realtime upstream whose session sends the key in text frames (raw, escaped), a binary frame and its close reason. */
export async function echoingRealtime() {
  const server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) => {
    socket.send(JSON.stringify({ type: 'session.created', event_id: 'e1', session: { model: 'rt-model' } }));
    socket.send(withKey({ type: 'conversation.item.created', event_id: 'e2', item: { content: [{ type: 'text', text: SAID }] } }));
    socket.send(Buffer.from(`binary ${KEY}`), { binary: true });
    socket.close(4000, `bye ${KEY}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

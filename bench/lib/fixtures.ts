// The fixed answers of the baseline upstream and the bare Fastify route: one chat completion and an SSE stream of N chunks.

/** Chunks in the baseline's streamed answer. */
export const STREAM_CHUNKS = 20;

/** The fixed non-streamed chat completion (OpenAI shape, with usage so a gateway can bill it). */
export const CHAT_COMPLETION = {
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'bench-model',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'The quick brown fox jumps over the lazy dog. '.repeat(4).trim() },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 },
};

/** The serialized completion, as sent. */
export const CHAT_COMPLETION_JSON = JSON.stringify(CHAT_COMPLETION);

/** The fixed SSE stream: STREAM_CHUNKS content chunks, a usage chunk, then `[DONE]`. */
export const CHAT_STREAM_EVENTS: string[] = (() => {
  const chunk = (delta: object, finish: string | null, usage?: object) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'bench-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(usage && { usage }),
    })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' }, null)];
  for (let i = 0; i < STREAM_CHUNKS; i++) events.push(chunk({ content: `word${i} ` }, null));
  events.push(chunk({}, 'stop', { prompt_tokens: 12, completion_tokens: STREAM_CHUNKS, total_tokens: 12 + STREAM_CHUNKS }));
  events.push('data: [DONE]\n\n');
  return events;
})();

/**
 * A long conversation (about 50 KB of JSON, 60 turns of prose with quotes and backslashes, then the question), as coding
 * agents send: what a relay costs per byte of the request.
 */
export function longChatBody(model = 'bench-model'): object {
  const turn = 'Here is the function, with "quoted" names and a C:\\path in it; read it and keep it in mind. '.repeat(9);
  const turns = Array.from({ length: 60 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: `${index}: ${turn}` }));
  return { model, messages: [...turns, { role: 'user', content: 'Say something short.' }] };
}

/** The chat request every contender receives (`stream` set per case). */
export function chatBody(stream: boolean, model = 'bench-model'): object {
  return {
    model,
    messages: [{ role: 'user', content: 'Say something short.' }],
    ...(stream && { stream: true, stream_options: { include_usage: true } }),
  };
}

/** A request of the bench: its path, body and own headers (the bearer token is added per contender). */
export interface BenchAsk {
  path: string;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * The chat request's question streamed in the other protocols, as their clients ask for it (Claude Code, Gemini CLI, the
 * legacy completions, Codex): the simulator answers each with the same text.
 */
export const OTHER_PROTOCOL_STREAMS: Record<'anthropic' | 'gemini' | 'completions' | 'responses', BenchAsk> = {
  anthropic: {
    path: '/v1/messages',
    body: { model: 'sim-chat', max_tokens: 1024, messages: [{ role: 'user', content: 'Say something short.' }], stream: true },
    headers: { 'anthropic-version': '2023-06-01' },
  },
  gemini: {
    path: '/v1beta/models/sim-chat:streamGenerateContent?alt=sse',
    body: { contents: [{ role: 'user', parts: [{ text: 'Say something short.' }] }] },
  },
  completions: { path: '/v1/completions', body: { model: 'sim-chat', prompt: 'Say something short.', max_tokens: 1024, stream: true } },
  // `store: false`, as Codex asks: the stream alone, not the stored response's writes.
  responses: { path: '/v1/responses', body: { model: 'sim-chat', input: 'Say something short.', stream: true, store: false } },
};

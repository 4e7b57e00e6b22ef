// Test helper: an Ollama-like local server (OpenAI-compatible, no key) on 127.0.0.1 port 0: `GET /v1/models` and `POST /v1/chat/completions`.
import { hostileUpstream, type HostileUpstream } from './hostile-upstream.ts';
import { chatCompletion } from './upstream-answers.ts';

/** The models the stand-in lists, as Ollama names pulled models. */
export const STAND_IN_MODELS = ['llama3.2:3b', 'qwen3:8b'] as const;
/** What its chat completions answer. */
export const STAND_IN_ANSWER = 'Hello there! How can I help you today?';

/** Starts the stand-in; every request is recorded (`requests`). Chat answers carry usage (3 input, 2 output tokens). */
export async function ollamaStandIn(): Promise<HostileUpstream> {
  return hostileUpstream((received, response) => {
    const json = (body: unknown) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (received.method === 'GET' && received.url === '/v1/models')
      return json({ object: 'list', data: STAND_IN_MODELS.map((id) => ({ id, object: 'model', owned_by: 'library' })) });
    if (received.method === 'POST' && received.url === '/v1/chat/completions') {
      const body = JSON.parse(received.body.toString()) as { model: string };
      return json(chatCompletion(body.model, STAND_IN_ANSWER));
    }
    void response.writeHead(404).end();
  });
}

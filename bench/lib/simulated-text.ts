// The bench's chat prompt asked of a server, and the text of its answer (JSON): the simulator's own text, which aimock is then given to answer.
import { chatBody } from './fixtures.ts';

/** The bench's chat prompt posted to `origin` for `model`, as JSON or streamed. */
export function askChat(origin: string, headers: Record<string, string>, stream: boolean, model: string): Promise<Response> {
  return fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody(stream, model)),
  });
}

/** The text (`choices[0].message.content`) `origin` answers the bench's chat prompt with, asked for `model` (JSON, not streamed). */
export async function simulatedTextOf(origin: string, headers: Record<string, string>, model = 'sim-chat'): Promise<string> {
  const json = (await (await askChat(origin, headers, false, model)).json()) as { choices: { message: { content: string } }[] };
  return json.choices[0]!.message.content;
}

// The text of a server's chat answer (JSON) to the bench's prompt: the simulator's own text, which aimock is then given to answer.
import { chatBody } from './fixtures.ts';

/** The text (`choices[0].message.content`) `origin` answers the bench's chat prompt with, asked for `model` (JSON, not streamed). */
export async function simulatedTextOf(origin: string, headers: Record<string, string>, model = 'sim-chat'): Promise<string> {
  const answer = await fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody(false, model)),
  });
  const json = (await answer.json()) as { choices: { message: { content: string } }[] };
  return json.choices[0]!.message.content;
}

// How large a simulated chat request is, measured in one walk: the prompt text the engine works on (in-line or on the worker pool) and the images beside it (whose answers are not kept).
import type { ChatRequest } from '../../protocols/neutral/chat.ts';

/** The two measures of a chat request. */
export interface RequestSize {
  /**
   * Characters of prompt text: the system text, each turn's text, the assistant turns' tool calls (arguments and name),
   * and the tools and the output format (each string one character more, each other value one, plus each key: never more
   * than their JSON). Past the walk's limit the walk stops: then it is only some figure over the limit.
   */
  text: number;
  /** Characters of the user turns' parts (each text part, image URL or image data), which `text` does not count. */
  parts: number;
}

/** The size of `request`, its text counted until it passes `limit` (see RequestSize.text). */
export function requestSize(request: ChatRequest, limit: number): RequestSize {
  let text = request.system?.length ?? 0;
  let parts = 0;
  for (const turn of request.turns) {
    text += turn.text.length;
    if (turn.role === 'assistant') for (const call of turn.toolCalls ?? []) text += call.arguments.length + call.name.length;
    else if (turn.role === 'user')
      for (const part of turn.parts ?? [])
        parts += part.type === 'text' ? part.text.length : 'url' in part ? part.url.length : part.data.length;
    if (text > limit) return { text, parts };
  }
  if (request.tools) text = jsonTextOf(request.tools, text, limit);
  if (request.format) text = jsonTextOf(request.format, text, limit);
  return { text, parts };
}

/** `counted` plus the strings of a JSON-like value (one character more per value) and its keys; stops as soon as it passes `limit`. */
function jsonTextOf(value: unknown, counted: number, limit: number): number {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    counted += typeof item === 'string' ? item.length + 1 : 1;
    if (counted > limit) return counted;
    if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        counted += key.length;
        stack.push(inner);
      }
    }
  }
  return counted;
}

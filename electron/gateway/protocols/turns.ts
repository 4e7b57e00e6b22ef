// Helpers on neutral chat turns shared by the protocol translators.
import type { ChatRequest, ChatTurn } from './neutral/chat.ts';

/** Gives each tool result the name of the call it answers, when the protocol only carries the call id. */
export function nameToolResults(turns: ChatTurn[]): ChatTurn[] {
  const names = new Map<string, string>();
  return turns.map((turn) => {
    if (turn.role === 'assistant') for (const call of turn.toolCalls ?? []) names.set(call.id, call.name);
    if (turn.role !== 'tool' || turn.name !== undefined) return turn;
    const name = names.get(turn.toolCallId);
    return name === undefined ? turn : { ...turn, name };
  });
}

/** A tool call's JSON arguments as a value; text that is not JSON (never produced by the engine) becomes `{}`. */
export function parseToolArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** The system prompt and every system turn of `request`, joined with blank lines, for protocols with one system field ('' when none). */
export function joinedSystem(request: ChatRequest): string {
  return [request.system, ...request.turns.filter((turn) => turn.role === 'system').map((turn) => turn.text)]
    .filter((text): text is string => text !== undefined && text !== '')
    .join('\n\n');
}

// Decides whether a simulated answer calls a tool, and which: forced by tool_choice or named in the last user message.
import type { ChatRequest, ChatTurn, ToolSpec } from '../../../protocols/neutral/chat.ts';

/** The tool to call, or undefined for a text answer. After a tool result the answer is always text, so agent loops end. */
export function toolToCall(request: ChatRequest): ToolSpec | undefined {
  const tools = request.tools ?? [];
  const choice = request.toolChoice ?? 'auto';
  const last = request.turns.at(-1);
  if (tools.length === 0 || choice === 'none' || !last || last.role === 'tool') return undefined;
  if (typeof choice === 'object') return tools.find((tool) => tool.name === choice.name);
  const mentioned = mentionedTool(tools, lastUserText(request.turns));
  return mentioned ?? (choice === 'required' ? tools[0] : undefined);
}

/** The text of the last user turn ('' when there is none). */
export function lastUserText(turns: readonly ChatTurn[]): string {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role === 'user') return turn.text;
  }
  return '';
}

/** A tool whose name appears in the text, as written or with `_`/`-` read as spaces. */
function mentionedTool(tools: readonly ToolSpec[], text: string): ToolSpec | undefined {
  const haystack = text.toLowerCase();
  return tools.find((tool) => {
    const name = tool.name.toLowerCase();
    return haystack.includes(name) || haystack.includes(name.replace(/[_-]+/g, ' '));
  });
}

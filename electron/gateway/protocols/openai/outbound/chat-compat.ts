// Fits a chat completions body to what an OpenAI-compatible server reads (its channel's compatibility profile).
import type { ChannelCompatName } from '../../../../../shared/channels.ts';

/** Fields a `compatible` server is not sent: it would refuse them or read them differently from OpenAI. */
const DROPPED_BY_COMPATIBLE = ['parallel_tool_calls', 'reasoning_effort', 'reasoning'] as const;

/**
 * Edits `body` (a chat completions request) in place for `profile`; true when it changed. `openai` keeps it as it is.
 * `compatible` (Ollama, llama.cpp, LM Studio, vLLM…): `max_completion_tokens` becomes `max_tokens` (an explicit
 * `max_tokens` wins), a `developer` message becomes `system`, and parallel tool calls and reasoning fields are dropped;
 * `stream_options` stays (those servers read `include_usage`).
 */
export function fitChatBody(body: Record<string, unknown>, profile: ChannelCompatName | undefined): boolean {
  if (profile !== 'compatible') return false;
  let changed = false;
  if (body['max_completion_tokens'] !== undefined) {
    if (body['max_tokens'] === undefined || body['max_tokens'] === null) body['max_tokens'] = body['max_completion_tokens'];
    delete body['max_completion_tokens'];
    changed = true;
  }
  for (const field of DROPPED_BY_COMPATIBLE) {
    if (field in body) {
      delete body[field];
      changed = true;
    }
  }
  if (Array.isArray(body['messages'])) {
    body['messages'] = body['messages'].map((message: unknown) => {
      if (message === null || typeof message !== 'object' || (message as Record<string, unknown>)['role'] !== 'developer') return message;
      changed = true;
      return { ...(message as Record<string, unknown>), role: 'system' };
    });
  }
  return changed;
}

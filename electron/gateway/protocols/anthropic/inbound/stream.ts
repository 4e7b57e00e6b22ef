// The named SSE events of a streamed Anthropic Message: message_start, content blocks with their deltas, ping, message_delta, message_stop.
import type { NamedEvent } from '../../named-event.ts';
import type { AnthropicBlock, AnthropicMessage } from './message.ts';

/**
 * The events that rebuild `message` on the client: `message_start` (empty content, null stop reason),
 * per block `content_block_start` / `content_block_delta` (text_delta or input_json_delta fragments) /
 * `content_block_stop`, one `ping` after the first block starts (as the real API does), then `message_delta`
 * with the stop reason and output tokens, and `message_stop`.
 */
export function anthropicStreamEvents(message: AnthropicMessage, split: (text: string) => string[]): NamedEvent[] {
  const events: { type: string; [key: string]: unknown }[] = [
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...message.usage, output_tokens: Math.min(1, message.usage.output_tokens) },
      },
    },
  ];
  message.content.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: emptyBlock(block) });
    if (index === 0) events.push({ type: 'ping' });
    for (const delta of deltas(block, split)) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: { output_tokens: message.usage.output_tokens },
    },
    { type: 'message_stop' },
  );
  return events.map((data) => ({ name: data.type, data }));
}

function emptyBlock(block: AnthropicBlock): AnthropicBlock {
  return block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
}

function deltas(block: AnthropicBlock, split: (text: string) => string[]): Record<string, string>[] {
  if (block.type === 'text') {
    return split(block.text)
      .filter((text) => text !== '')
      .map((text) => ({ type: 'text_delta', text }));
  }
  return split(JSON.stringify(block.input))
    .filter((json) => json !== '')
    .map((partial_json) => ({ type: 'input_json_delta', partial_json }));
}

// The named SSE events of a streamed Anthropic Message as its deltas arrive: message_start, content blocks with their deltas, ping, message_delta, message_stop.
import type { ChatDelta, TextDelta } from '../../neutral/deltas.ts';
import { EventRun, sseFrame, type NamedEvent, type WrittenBytes } from '../../named-event.ts';
import { keptFrames, type KeptSpans, type KeptStreamCodec } from '../../neutral/kept-stream.ts';
import { quotedTexts } from '../../quoted-texts.ts';
import { stepAsync, stepAtHand, type AtHand, type Hold, type Steps } from '../../at-hand.ts';
import { carryOpaque, carryToolId } from '../../neutral/carry.ts';
import { isAnthropic, STOP_REASONS, toolUseId, type AnthropicStopReason } from './message.ts';

/** Identity of one streamed message, and the input tokens its `message_start` reports. */
export interface AnthropicStreamMeta {
  id: string;
  model: string;
  inputTokens: number;
}

/**
 * The events that build the message on the client, from the first choice's deltas: `message_start` (empty
 * content, null stop reason), per block `content_block_start` / `content_block_delta` (text_delta or
 * input_json_delta fragments) / `content_block_stop`, one `ping` after the first block starts (as the real API
 * does), then, once the usage is known, `message_delta` with the stop reason and output tokens, and `message_stop`.
 */
export function anthropicStreamEvents(deltas: AsyncIterable<ChatDelta>, meta: AnthropicStreamMeta): AsyncGenerator<NamedEvent> {
  // Runs are gathered at hand only: the async path steps each delta.
  return stepAsync(deltas, eventSteps(meta)) as AsyncGenerator<NamedEvent>;
}

/** The events of `anthropicStreamEvents` from deltas all at hand, pulled synchronously (the text pieces of an open block as one EventRun). */
export function anthropicStreamEventsAtHand(deltas: AtHand<ChatDelta>, meta: AnthropicStreamMeta): Iterable<NamedEvent | EventRun | Hold> {
  return stepAtHand(deltas, eventSteps(meta));
}

/**
 * The events of a kept answer's stream (`spans` of its deltas, see ChatStream.keptAtHand): the same bytes as
 * `anthropicStreamEventsAtHand` writes, rendered once per kept answer (and input tokens), only the id and model written per
 * call (undefined when not written so: see keptFrames).
 */
export function anthropicStreamEventsKept(
  spans: KeptSpans,
  meta: AnthropicStreamMeta,
): Iterable<NamedEvent | EventRun | WrittenBytes | Hold> | undefined {
  return keptFrames(spans, keptCodecOf(meta.inputTokens), meta);
}

/**
 * `message_start`'s message opens with its identity. Only what changes: a constant before it would be a hole's start
 * that the next `data:` line shares, which the journal thread's template refuses (journal-kept-packs.ts).
 */
const messageIdentity = (meta: AnthropicStreamMeta) =>
  `"id":${JSON.stringify(meta.id)},"type":"message","role":"assistant","model":${JSON.stringify(meta.model)}`;

/** How a kept stream is rendered: its input tokens (the same for every stream of one kept answer) are part of its bytes. */
function keptCodecOf(inputTokens: number): KeptStreamCodec<AnthropicStreamMeta, NamedEvent | EventRun> {
  return {
    variant: `anthropic-messages+in${inputTokens}`,
    stage: anthropicStreamEventsAtHand,
    frame: sseFrame,
    blank: { id: '', model: '', inputTokens },
    probe: { id: 'msg_probe', model: 'probe', inputTokens },
    identity: messageIdentity,
  };
}

function eventSteps(meta: AnthropicStreamMeta): Steps<ChatDelta, NamedEvent | EventRun> {
  const event = (data: { type: string; [key: string]: unknown }): NamedEvent => ({ name: data.type, data });
  let blocks = 0;
  let open = false;
  /** The reasoning part the open block shows (undefined: the open block is not thinking). */
  let thinkingPart: number | undefined;
  /** The open block is a text block (text after a tool call or thinking starts a new one). */
  let textOpen = false;
  let stop: { stop_reason: AnthropicStopReason; stop_sequence: string | null } | undefined;
  const start = (block: Record<string, unknown>, out: NamedEvent[]) => {
    if (open) out.push(event({ type: 'content_block_stop', index: blocks - 1 }));
    out.push(event({ type: 'content_block_start', index: blocks, content_block: block }));
    if (blocks === 0) out.push(event({ type: 'ping' }));
    blocks++;
    open = true;
    thinkingPart = undefined;
    textOpen = block['type'] === 'text';
  };
  const begin = (out: NamedEvent[]) => {
    out.push(
      event({
        type: 'message_start',
        message: {
          id: meta.id,
          type: 'message',
          role: 'assistant',
          model: meta.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: meta.inputTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      }),
    );
  };
  const step = (delta: ChatDelta, out: NamedEvent[]) => {
    if (delta.type !== 'usage' && delta.choice !== 0) return; // the Messages API has no `n`
    switch (delta.type) {
      case 'reasoning': {
        if (delta.data !== undefined && isAnthropic(delta.origin)) {
          start({ type: 'redacted_thinking', data: delta.data }, out);
          break;
        }
        if (thinkingPart !== delta.part) {
          start({ type: 'thinking', thinking: '', signature: '' }, out);
          thinkingPart = delta.part;
        }
        if (delta.text !== '')
          out.push(event({ type: 'content_block_delta', index: blocks - 1, delta: { type: 'thinking_delta', thinking: delta.text } }));
        const opaque = delta.signature ?? delta.data;
        if (opaque !== undefined) {
          const signature = carryOpaque(opaque, delta.origin, 'anthropic');
          out.push(event({ type: 'content_block_delta', index: blocks - 1, delta: { type: 'signature_delta', signature } }));
        }
        break;
      }
      case 'text':
        if (!open || !textOpen) start({ type: 'text', text: '' }, out);
        if (delta.text !== '')
          out.push(event({ type: 'content_block_delta', index: blocks - 1, delta: { type: 'text_delta', text: delta.text } }));
        break;
      case 'tool_call':
        start({ type: 'tool_use', id: toolUseId(carryToolId(delta.id, delta.thoughtSignature)), name: delta.name, input: {} }, out);
        break;
      case 'tool_arguments':
        if (delta.fragment !== '') {
          const json = { type: 'input_json_delta', partial_json: delta.fragment };
          out.push(event({ type: 'content_block_delta', index: blocks - 1, delta: json }));
        }
        break;
      case 'finish':
        // A message always has a block: an empty answer is one empty text block.
        if (blocks === 0) start({ type: 'text', text: '' }, out);
        if (open) out.push(event({ type: 'content_block_stop', index: blocks - 1 }));
        open = false;
        textOpen = false;
        stop = {
          stop_reason: STOP_REASONS[delta.reason],
          stop_sequence: delta.reason === 'stop_sequence' ? (delta.stopSequence ?? null) : null,
        };
        break;
      case 'usage':
        out.push(
          event({
            type: 'message_delta',
            delta: stop ?? { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: delta.outputTokens },
          }),
        );
        out.push(event({ type: 'message_stop' }));
        break;
    }
  };
  // At hand, the text pieces of an open text block are written together: their frames made in one pass around each quoted piece.
  const gather = {
    joins: (delta: ChatDelta) => delta.type === 'text' && delta.choice === 0 && textOpen && delta.text !== '',
    made: (run: readonly TextDelta[]): EventRun => {
      const index = blocks - 1;
      const head = `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":`;
      const events = () =>
        run.map((delta) => event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: delta.text } }));
      return new EventRun({ name: 'content_block_delta', head, quoted: quotedTexts(run), tail: '}}' }, events);
    },
  };
  return { begin, step, gather };
}

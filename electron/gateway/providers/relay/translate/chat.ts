// The chat capability of a model served only by channels of other protocols: the neutral request is written in each channel's wire by its outbound codec, sent with failover, and the answer read back as neutral.
import { GatewayError } from '../../../errors.ts';
import type { ChatRequest, ChatResult } from '../../../protocols/neutral/chat.ts';
import type { ChatDelta, ChatStream } from '../../../protocols/neutral/deltas.ts';
import { TokenCounter } from '../../../protocols/neutral/token-counter.ts';
import { estimateInputTokens } from '../../../protocols/neutral/tokens.ts';
import { upstreamError } from '../../../protocols/neutral/upstream-errors.ts';
import type {
  CallContext,
  ChannelDirectory,
  ChannelKind,
  ChatProvider,
  ChatWire,
  EstimatedCount,
  RelayChannel,
  UpstreamReply,
} from '../../types.ts';
import { candidatesOfKinds } from '../candidates-of.ts';
import { forwardWithFailover } from '../failover.ts';
import { COUNTING_WIRES } from './count.ts';
import { sseJson } from './event-stream.ts';
import { chatWireOf, OUTBOUND_WIRES } from './outbound-wires.ts';

/** The largest whole (non-streamed) upstream answer read. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export class TranslatingChat implements ChatProvider {
  private readonly channels: ChannelDirectory;
  private readonly model: string;
  private readonly kinds: readonly ChannelKind[];

  /** Chat for `model` over the channels of `kinds` in `channels` (of other wires than the caller's, or of its own when the gateway must read the answer). */
  constructor(channels: ChannelDirectory, model: string, kinds: readonly ChannelKind[]) {
    this.channels = channels;
    this.model = model;
    this.kinds = kinds;
  }

  async complete(request: ChatRequest, call: CallContext): Promise<ChatResult> {
    const { reply, wire } = await this.send(request, call, false);
    const answer = parsedOrText(await readWhole(reply.body));
    if (reply.status >= 400 || !wire) throw upstreamError(reply.status, answer);
    if (typeof answer === 'string') throw new GatewayError('upstream_failed', 'The upstream answered with a body that is not JSON.');
    return OUTBOUND_WIRES[wire].codec.result(answer);
  }

  async stream(request: ChatRequest, call: CallContext): Promise<ChatStream> {
    const { reply, wire } = await this.send(request, call, true);
    if (reply.status >= 400 || !wire) throw upstreamError(reply.status, parsedOrText(await readWhole(reply.body)));
    const deltas = OUTBOUND_WIRES[wire].codec.deltas(sseJson(reply.body));
    return withUsage(deltas, () => estimateInputTokens(request));
  }

  /**
   * Counted by the upstream's own endpoint, over the channels whose protocol has one (Anthropic, Gemini), with the same
   * failover; with none of those (OpenAI channels only), the documented local estimate, marked as one.
   */
  async countTokens(request: ChatRequest, call: CallContext): Promise<number | EstimatedCount> {
    const candidates = (await this.candidates()).filter((channel) => COUNTING_WIRES[chatWireOf(channel)] !== undefined);
    if (candidates.length === 0) return { estimate: estimateInputTokens(request) };
    const reply = await forwardWithFailover(
      this.channels,
      candidates,
      {
        operation: 'count_tokens',
        model: this.model,
        stream: false,
        translated: (channel) => {
          const counting = COUNTING_WIRES[chatWireOf(channel)]!;
          const body = counting.body(request, channel.upstreamModel);
          return { operation: counting.operation, body: Buffer.from(JSON.stringify(body)), sse: false, headers: counting.headers };
        },
      },
      call,
    );
    const answer = parsedOrText(await readWhole(reply.body));
    const answered = candidates.find((channel) => channel.id === reply.channelId);
    if (reply.status >= 400 || !answered) throw upstreamError(reply.status, answer);
    const counted = COUNTING_WIRES[chatWireOf(answered)]!.read(answer);
    if (counted === undefined) throw new GatewayError('upstream_failed', 'The upstream answered a token count without a count.');
    return counted;
  }

  /** The candidate channels of every kind serving the model, best priority first. */
  private candidates(): Promise<RelayChannel[]> {
    return candidatesOfKinds(this.channels, this.model, this.kinds);
  }

  /** Sends `request` over the candidate channels (best first), each in its own wire; the reply and the wire of the channel that answered (none: every one failed). */
  private async send(request: ChatRequest, call: CallContext, stream: boolean): Promise<{ reply: UpstreamReply; wire?: ChatWire }> {
    const candidates = await this.candidates();
    const reply = await forwardWithFailover(
      this.channels,
      candidates,
      {
        operation: 'chat',
        model: this.model,
        stream,
        translated: (channel) => {
          const wire = OUTBOUND_WIRES[chatWireOf(channel)];
          const body = wire.codec.request(request, { model: channel.upstreamModel, stream, compat: channel.compat });
          return { operation: wire.operation(stream), body: Buffer.from(JSON.stringify(body)), sse: stream, headers: wire.headers };
        },
      },
      call,
    );
    const answered: RelayChannel | undefined = candidates.find((channel) => channel.id === reply.channelId);
    return answered ? { reply, wire: chatWireOf(answered) } : { reply };
  }
}

/** `deltas` ending with a usage delta: when the upstream's stream ended without one, the documented estimate of its input and of what it delivered. */
async function* usageGuarded(deltas: AsyncIterable<ChatDelta>, inputEstimate: () => number): AsyncGenerator<ChatDelta> {
  let counted = false;
  const delivered = new TokenCounter();
  for await (const delta of deltas) {
    if (delta.type === 'usage') counted = true;
    else if (delta.type === 'text') delivered.add(delta.text);
    else if (delta.type === 'tool_arguments') delivered.add(delta.fragment);
    yield delta;
  }
  if (!counted) yield { type: 'usage', inputTokens: inputEstimate(), outputTokens: delivered.count };
}

function withUsage(deltas: AsyncIterable<ChatDelta>, inputEstimate: () => number): ChatStream {
  return { [Symbol.asyncIterator]: () => usageGuarded(deltas, inputEstimate) };
}

/** The whole body, up to MAX_ANSWER_BYTES (a longer answer is an upstream failure). */
export async function readWhole(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) throw new GatewayError('upstream_failed', 'The upstream answer is over 32 MiB.');
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The body parsed as JSON, or its text when it is not JSON. */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

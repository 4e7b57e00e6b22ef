// Embeddings of a model served only by channels of the other embeddings protocol: OpenAI's /embeddings and Gemini's :batchEmbedContents, each written for the channel it goes to and read back as vectors.
import { GatewayError } from '../../../errors.ts';
import { countTokens, INPUT_SLACK_TOKENS, INPUT_TOKENS_PER_BYTE } from '../../../protocols/neutral/tokens.ts';
import { upstreamError } from '../../../protocols/neutral/upstream-errors.ts';
import type { CallContext, ChannelDirectory, ChannelKind, EmbeddingInput, EmbeddingsProvider, RelayChannel } from '../../types.ts';
import { candidatesOfKinds } from '../candidates-of.ts';
import { forwardWithFailover } from '../failover.ts';
import { record } from '../kind.ts';
import { parsedOrText, readWhole } from './chat.ts';

/** The channel kinds that embed, each with how a request is written for it and how its answer is read. */
const EMBEDDING_KINDS = ['openai', 'gemini'] as const satisfies readonly ChannelKind[];
type EmbeddingKind = (typeof EMBEDDING_KINDS)[number];

type Asked = { model: string; inputs: readonly EmbeddingInput[]; dimensions?: number };

/** Embeddings for `model` over its channels of `kinds` that embed; undefined when none of `kinds` does. */
export function translatedEmbeddings(
  channels: ChannelDirectory,
  model: string,
  kinds: readonly ChannelKind[],
): EmbeddingsProvider | undefined {
  const embedding = EMBEDDING_KINDS.filter((kind) => kinds.includes(kind));
  return embedding.length === 0 ? undefined : { embed: (request, call) => embed(channels, embedding, request, call) };
}

async function embed(channels: ChannelDirectory, kinds: readonly EmbeddingKind[], request: Asked, call: CallContext) {
  // Gemini embeds texts only: token-id inputs go to OpenAI channels alone.
  const tokenIds = request.inputs.some((input) => typeof input !== 'string');
  const usable = tokenIds ? kinds.filter((kind) => kind === 'openai') : kinds;
  if (usable.length === 0) {
    throw new GatewayError(
      'invalid_request',
      `Model '${request.model}' is served by Gemini channels, which embed texts only, not token ids.`,
      'input',
    );
  }
  const candidates = await candidatesOfKinds(channels, request.model, usable);
  const reply = await forwardWithFailover(
    channels,
    candidates,
    {
      operation: 'embeddings',
      model: request.model,
      stream: false,
      apiVersion: 'v1beta',
      translated: (channel) =>
        channel.kind === 'gemini'
          ? { operation: 'batchEmbedContents', body: json(geminiBody(request, channel)) }
          : { operation: 'embeddings', body: json(openaiBody(request, channel)) },
    },
    call,
  );
  const answer = parsedOrText(await readWhole(reply.body));
  if (reply.status >= 400) throw upstreamError(reply.status, answer);
  const answered: RelayChannel | undefined = candidates.find((channel) => channel.id === reply.channelId);
  const vectors = answered?.kind === 'gemini' ? geminiVectors(answer) : openaiVectors(answer);
  if (!vectors || vectors.length !== request.inputs.length) {
    throw new GatewayError('upstream_failed', 'The upstream answered with no embedding for each input.');
  }
  const reported = answered?.kind === 'gemini' ? undefined : record(record(answer)?.['usage'])?.['prompt_tokens'];
  return { vectors, usage: { inputTokens: believedInput(reported, request.inputs, call) } };
}

/**
 * The input tokens charged: the upstream's count when it is a whole number no larger than the inputs can hold (a token per
 * byte of text, one per token id, and INPUT_SLACK_TOKENS), else the gateway's estimate, the call's journal note saying so.
 */
function believedInput(reported: unknown, inputs: readonly EmbeddingInput[], call: CallContext): number {
  let estimate = 0;
  let bound = INPUT_SLACK_TOKENS;
  for (const input of inputs) {
    estimate += typeof input === 'string' ? countTokens(input) : input.length;
    bound += typeof input === 'string' ? Buffer.byteLength(input) * INPUT_TOKENS_PER_BYTE : input.length;
  }
  if (reported === undefined) return estimate;
  if (typeof reported === 'number' && Number.isSafeInteger(reported) && reported >= 0 && reported <= bound) return reported;
  const shown = typeof reported === 'number' ? String(reported) : `a ${typeof reported}`;
  call.principal.notes?.note(`Upstream usage out of bounds (input tokens ${shown}); charged the estimate.`);
  return estimate;
}

const json = (body: unknown) => Buffer.from(JSON.stringify(body));

function openaiBody(request: Asked, channel: RelayChannel) {
  return {
    model: channel.upstreamModel,
    input: request.inputs,
    encoding_format: 'float',
    ...(request.dimensions !== undefined && { dimensions: request.dimensions }),
  };
}

function geminiBody(request: Asked, channel: RelayChannel) {
  return {
    requests: request.inputs.map((text) => ({
      model: `models/${channel.upstreamModel}`,
      content: { parts: [{ text }] },
      ...(request.dimensions !== undefined && { outputDimensionality: request.dimensions }),
    })),
  };
}

/** `data[].embedding` (float arrays) in index order, or undefined when the answer is not that shape. */
function openaiVectors(answer: unknown): Float32Array[] | undefined {
  const data = record(answer)?.['data'];
  if (!Array.isArray(data)) return undefined;
  const items = data.map((item, position) => ({ index: record(item)?.['index'] ?? position, values: record(item)?.['embedding'] }));
  items.sort((a, b) => Number(a.index) - Number(b.index));
  return vectorsOf(items.map((item) => item.values));
}

/** `embeddings[].values`, or undefined when the answer is not that shape. */
function geminiVectors(answer: unknown): Float32Array[] | undefined {
  const embeddings = record(answer)?.['embeddings'];
  return Array.isArray(embeddings) ? vectorsOf(embeddings.map((item) => record(item)?.['values'])) : undefined;
}

function vectorsOf(lists: unknown[]): Float32Array[] | undefined {
  if (!lists.every((list) => Array.isArray(list) && list.every((value) => typeof value === 'number'))) return undefined;
  return lists.map((list) => Float32Array.from(list as number[]));
}

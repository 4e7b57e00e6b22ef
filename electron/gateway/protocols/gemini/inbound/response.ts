// Renders Gemini GenerateContentResponse objects: one whole answer from a neutral ChatResult, or the chunks of a stream from its deltas.
import { parseToolArguments } from '../../turns.ts';
import type { ChatChoice, ChatResult, FinishReason, ToolCall } from '../../neutral/chat.ts';
import type { ChatDelta, TextDelta } from '../../neutral/deltas.ts';
import { stepAsync, stepAtHand, type AtHand, type Hold, type Steps } from '../../at-hand.ts';
import { carryOpaque } from '../../neutral/carry.ts';
import { dataOnlyFrame, EventRun, type WrittenBytes } from '../../named-event.ts';
import { keptFrames, type KeptSpans, type KeptStreamCodec } from '../../neutral/kept-stream.ts';
import { quotedTexts } from '../../quoted-texts.ts';

/** A part of generated content: text (a thought when `thought`), or a function call; either may carry a thought signature. */
export type GeminiPart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { functionCall: { id: string; name: string; args: unknown }; thoughtSignature?: string };

/** One candidate answer; `finishReason` only on a candidate's last chunk. */
export interface GeminiCandidate {
  content: { role: 'model'; parts: GeminiPart[] };
  finishReason?: 'STOP' | 'MAX_TOKENS' | 'SAFETY';
  index: number;
}

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

/** The answer of `generateContent`, and each chunk of `streamGenerateContent`. */
export interface GenerateContentResponse {
  candidates: GeminiCandidate[];
  usageMetadata?: GeminiUsage;
  modelVersion: string;
  responseId: string;
}

/** What a stream's stage gives: a chunk, or a run of chunks written together. */
export type GeminiChunk = GenerateContentResponse | EventRun<GenerateContentResponse>;

/** Identity of one answer, repeated on every chunk of a stream. */
export interface GeminiAnswerMeta {
  model: string;
  responseId: string;
}

export function toGenerateContentResponse(result: ChatResult, meta: GeminiAnswerMeta): GenerateContentResponse {
  return {
    candidates: result.choices.map((choice, index) => ({
      content: {
        role: 'model',
        parts: [...(choice.reasoning ?? []).flatMap(thoughtParts), ...textParts(choice), ...callParts(choice.toolCalls)],
      },
      finishReason: finishReasonOf(choice.finishReason),
      index,
    })),
    usageMetadata: usageOf(result.usage),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

/**
 * The chunks of a streamed answer as its deltas arrive: each candidate's text one piece per chunk, its function
 * calls whole in one part list after the text (as Gemini sends them), its finishReason on its last chunk, and the
 * usage on the final chunk. A chunk is held until the next delta shows whether it is its candidate's last (or the
 * stream's); candidates whose deltas interleave share a chunk until one of them has a next piece.
 */
export function toGenerateContentChunks(deltas: AsyncIterable<ChatDelta>, meta: GeminiAnswerMeta): AsyncGenerator<GenerateContentResponse> {
  // Runs are gathered at hand only: the async path steps each delta.
  return stepAsync(deltas, chunkSteps(meta)) as AsyncGenerator<GenerateContentResponse>;
}

/**
 * The chunks of `toGenerateContentChunks` from deltas all at hand, pulled synchronously, a candidate's text pieces as one
 * EventRun (a charge whose commit fails ends the stream without the piece held back: the failure reaches the writer, not this stage).
 */
export function toGenerateContentChunksAtHand(
  deltas: AtHand<ChatDelta>,
  meta: GeminiAnswerMeta,
): Iterable<GenerateContentResponse | EventRun<GenerateContentResponse> | Hold> {
  return stepAtHand(deltas, chunkSteps(meta));
}

/**
 * The chunks of a kept answer's stream as data-only SSE frames (`spans` of its deltas, see ChatStream.keptAtHand): the same
 * bytes as `toGenerateContentChunksAtHand` written with `alt=sse`, rendered once per kept answer, only the model and
 * response id written per call (undefined when not written so: see keptFrames).
 */
export function toGenerateContentSseKept(spans: KeptSpans, meta: GeminiAnswerMeta): Iterable<WrittenBytes | Hold> | undefined {
  return keptFrames(spans, KEPT_SSE, meta);
}

/** How a kept stream is rendered as SSE: every chunk's JSON ends with its identity (`JSON.stringify` writes its fields last). */
const KEPT_SSE: KeptStreamCodec<GeminiAnswerMeta, GeminiChunk> = {
  variant: 'gemini-sse',
  stage: toGenerateContentChunksAtHand,
  frame: dataOnlyFrame,
  blank: { model: '', responseId: '' },
  probe: { model: 'probe', responseId: 'probe-response' },
  identity: (meta) => `"modelVersion":${JSON.stringify(meta.model)},"responseId":${JSON.stringify(meta.responseId)}}`,
};

function chunkSteps(meta: GeminiAnswerMeta): Steps<ChatDelta, GenerateContentResponse | EventRun<GenerateContentResponse>> {
  let pending = new Map<number, GeminiCandidate>();
  const chunk = (usage?: GeminiUsage): GenerateContentResponse => ({
    candidates: [...pending.values()],
    ...(usage && { usageMetadata: usage }),
    modelVersion: meta.model,
    responseId: meta.responseId,
  });
  const calls = new Map<number, ToolCall[]>();
  const texted = new Set<number>();
  const parted = new Set<number>();
  /** Adds `parts` of candidate `index` to the pending chunk, after sending the pending chunk if it has that candidate already. */
  const put = (index: number, parts: GeminiPart[], out: GenerateContentResponse[]) => {
    if (pending.has(index)) {
      out.push(chunk());
      pending = new Map();
    }
    pending.set(index, { content: { role: 'model', parts }, index });
    parted.add(index);
  };
  /** The text delta whose plain text part `pending` holds alone, if it does: the pieces of its candidate that follow may be gathered. */
  let held: TextDelta | undefined;
  /** The chunks one delta completes (most complete none: the delta is held in `pending`). */
  const step = (delta: ChatDelta, out: GenerateContentResponse[]) => {
    held = undefined;
    switch (delta.type) {
      case 'reasoning': {
        const parts = thoughtParts(delta);
        if (parts.length > 0) put(delta.choice, parts, out);
        break;
      }
      case 'text':
        // An empty text is a part only as the candidate's first (an empty answer).
        if (delta.text !== '' || !texted.has(delta.choice)) {
          put(delta.choice, [{ text: delta.text }], out);
          if (pending.size === 1) held = delta;
        }
        texted.add(delta.choice);
        break;
      case 'tool_call': {
        const list = calls.get(delta.choice) ?? [];
        list[delta.call] = {
          id: delta.id,
          name: delta.name,
          arguments: '',
          ...(delta.thoughtSignature !== undefined && { thoughtSignature: delta.thoughtSignature }),
        };
        calls.set(delta.choice, list);
        break;
      }
      case 'tool_arguments': {
        const call = calls.get(delta.choice)?.[delta.call];
        if (call) call.arguments += delta.fragment;
        break;
      }
      case 'finish': {
        const made = (calls.get(delta.choice) ?? []).filter((call) => call !== undefined);
        if (made.length > 0) put(delta.choice, callParts(made), out);
        else if (!parted.has(delta.choice)) put(delta.choice, [{ text: '' }], out);
        const last = pending.get(delta.choice);
        if (last) last.finishReason = finishReasonOf(delta.reason);
        break;
      }
      case 'usage':
        out.push(chunk(usageOf(delta)));
        pending = new Map();
        break;
    }
  };
  const end = (out: GenerateContentResponse[]) => {
    if (pending.size > 0) out.push(chunk());
  };
  // At hand, a candidate's text pieces that follow its held one are gathered: the held piece and every one but the last
  // leave as chunks of one run, written in one pass around each quoted piece; the last is held in its turn.
  let chunkTail: string | undefined;
  const gather = {
    joins: (delta: ChatDelta) => delta.type === 'text' && delta.text !== '' && held !== undefined && delta.choice === held.choice,
    made: (run: readonly TextDelta[]): EventRun<GenerateContentResponse> => {
      const index = held!.choice;
      const pieces = [held!, ...run.slice(0, -1)];
      const last = run[run.length - 1]!;
      held = last;
      pending = new Map([[index, { content: { role: 'model', parts: [{ text: last.text }] }, index }]]);
      chunkTail ??= `],"modelVersion":${JSON.stringify(meta.model)},"responseId":${JSON.stringify(meta.responseId)}}`;
      const tail = `}]},"index":${index}}${chunkTail}`;
      const chunks = () =>
        pieces.map((piece): GenerateContentResponse => {
          const candidate: GeminiCandidate = { content: { role: 'model', parts: [{ text: piece.text }] }, index };
          return { candidates: [candidate], modelVersion: meta.model, responseId: meta.responseId };
        });
      return new EventRun(
        { head: '{"candidates":[{"content":{"role":"model","parts":[{"text":', quoted: quotedTexts(pieces), tail },
        chunks,
      );
    },
  };
  // A stream broken upstream still delivers the piece it held back before the error ends it.
  return { step, end, fail: end, gather };
}

/** Gemini's token usage block (thoughts apart from the candidates' tokens); also the answer's shape for countTokens' `totalTokens`. */
export function usageOf(usage: ChatResult['usage']): GeminiUsage {
  const { inputTokens, outputTokens } = usage;
  const thoughts = usage.reasoningTokens ?? 0;
  return {
    promptTokenCount: inputTokens,
    candidatesTokenCount: outputTokens - thoughts,
    totalTokenCount: inputTokens + outputTokens,
    ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
    ...(usage.cachedInputTokens ? { cachedContentTokenCount: usage.cachedInputTokens } : {}),
  };
}

/**
 * A reasoning part (or a reasoning delta) as a thought part: its text, and its signature (Gemini's own as it is, another
 * provider's carried so it comes back). Opaque reasoning without text (redacted, encrypted) has no place in Gemini and is dropped.
 */
function thoughtParts(reasoning: { text: string; signature?: string; origin?: string }): GeminiPart[] {
  const signature = reasoning.signature === undefined ? undefined : carryOpaque(reasoning.signature, reasoning.origin, 'gemini');
  if (reasoning.text === '' && signature === undefined) return [];
  return [{ text: reasoning.text, thought: true, ...(signature !== undefined && { thoughtSignature: signature }) }];
}

function textParts(choice: ChatChoice): GeminiPart[] {
  return choice.text === '' && choice.toolCalls.length > 0 ? [] : [{ text: choice.text }];
}

function callParts(calls: ToolCall[]): GeminiPart[] {
  return calls.map((call) => ({
    functionCall: { id: call.id, name: call.name, args: parseToolArguments(call.arguments) },
    ...(call.thoughtSignature !== undefined && { thoughtSignature: call.thoughtSignature }),
  }));
}

/** Stop sequences and tool calls end with STOP, as on the real API; the token limit is MAX_TOKENS, a filtered answer SAFETY. */
function finishReasonOf(reason: FinishReason): 'STOP' | 'MAX_TOKENS' | 'SAFETY' {
  if (reason === 'content_filter') return 'SAFETY';
  return reason === 'length' ? 'MAX_TOKENS' : 'STOP';
}

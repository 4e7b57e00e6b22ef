// Renders OpenAI chat completion objects from a neutral chat result, and streamed `chat.completion.chunk` events from its deltas.
import type { ChatResult, FinishReason, ToolCall } from '../../neutral/chat.ts';
import type { ChatDelta, TextDelta } from '../../neutral/deltas.ts';
import { stepAsync, stepAtHand, type AtHand, type Hold, type Steps } from '../../at-hand.ts';
import { DATA_FRAME_START, DONE, EventRun, FRAME_END, sseFrame, type NamedEvent, type SseEvent } from '../../named-event.ts';
import { keptFrames, type KeptSpans, type KeptStreamCodec } from '../../neutral/kept-stream.ts';
import { quotedTexts } from '../../quoted-texts.ts';
import { renderedOnce } from '../../neutral/kept-renders.ts';
import { finishReasonOf, reasoningContentOf, REASONING_PART_SEPARATOR, usageOf } from '../chat-tables.ts';

/** What every object of one completion shares. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

/** How the answer is written: tool calls as `tool_calls`, or as the deprecated `function_call` when the call used `functions`. */
export interface ChatAnswerOptions {
  legacyFunctions?: boolean;
}

/** Reported as `system_fingerprint` so clients can tell simulated answers apart. */
export const SYSTEM_FINGERPRINT = 'fp_gatehouse_sim';

const header = (meta: CompletionMeta, object: string) => ({
  id: meta.id,
  object,
  created: meta.created,
  model: meta.model,
  service_tier: 'default',
  system_fingerprint: SYSTEM_FINGERPRINT,
});

function finishOf(finishReason: FinishReason, options: ChatAnswerOptions): string {
  const reason = finishReasonOf(finishReason);
  return reason === 'tool_calls' && options.legacyFunctions ? 'function_call' : reason;
}

/** The `message` calls: `tool_calls`, or the first call as `function_call` in legacy mode. */
function callsOf(calls: ToolCall[], options: ChatAnswerOptions) {
  if (calls.length === 0) return {};
  if (options.legacyFunctions) return { function_call: { name: calls[0]!.name, arguments: calls[0]!.arguments } };
  return { tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) };
}

/** `reasoning_content`, as OpenAI-compatible servers (DeepSeek, vLLM) write it, only when the choice has reasoning text. */
function reasoningField(reasoning: ChatResult['choices'][number]['reasoning']) {
  const text = reasoningContentOf(reasoning);
  return text === undefined ? {} : { reasoning_content: text };
}

export function toChatCompletion(result: ChatResult, meta: CompletionMeta, options: ChatAnswerOptions = {}) {
  return {
    ...header(meta, 'chat.completion'),
    choices: result.choices.map((choice, index) => ({
      index,
      message: {
        role: 'assistant',
        content: choice.toolCalls.length > 0 && choice.text === '' ? null : choice.text,
        ...reasoningField(choice.reasoning),
        refusal: null,
        annotations: [],
        ...callsOf(choice.toolCalls, options),
      },
      logprobs: null,
      finish_reason: finishOf(choice.finishReason, options),
    })),
    usage: usageOf(result.usage),
  };
}

/** The meta a completion's text after its identity is rendered with, and the length of that identity's JSON text. */
const BLANK_META: CompletionMeta = { id: '', created: 0, model: '' };
const BLANK_IDENTITY_LENGTH = JSON.stringify({ id: '', object: 'chat.completion', created: 0, model: '' }).length - 1;

/**
 * `toChatCompletion`'s JSON text, as `JSON.stringify` writes it: its identity (id, created, model) written per call, the
 * rest after it made once per kept answer (`renderedOnce`), else now.
 */
export function chatCompletionText(result: ChatResult, meta: CompletionMeta, options: ChatAnswerOptions = {}): string {
  const rest = renderedOnce(result, options.legacyFunctions ? 'openai-chat-legacy' : 'openai-chat', () =>
    JSON.stringify(toChatCompletion(result, BLANK_META, options)).slice(BLANK_IDENTITY_LENGTH),
  );
  return `${identityText('chat.completion', meta)}${rest}`;
}

/**
 * A completion's (or chunk's) JSON text up to its identity's end (id, object, created, model), as `JSON.stringify` writes
 * it: a whole `created` spelled as its digits, and the model's JSON text made once while calls name the same model.
 */
const identityText = (object: string, meta: CompletionMeta) =>
  `{"id":${JSON.stringify(meta.id)},"object":"${object}","created":${Number.isSafeInteger(meta.created) ? `${meta.created}` : JSON.stringify(meta.created)},"model":${modelText(meta.model)}`;

/** The last model `modelText` wrote, and its JSON text. */
let lastModel = '';
let lastModelText = '""';
/** `JSON.stringify(model)`, made again only when the model is not the one of the call before. */
function modelText(model: string): string {
  if (model !== lastModel) {
    lastModelText = JSON.stringify(model);
    lastModel = model;
  }
  return lastModelText;
}

/**
 * The chunks of a streamed completion as its deltas arrive: per choice the role first (content null when the choice
 * starts with a tool call), then `reasoning_content` pieces (only when there is reasoning text), content pieces or indexed tool-call fragments (legacy: `function_call` fragments of
 * the first call only), then a chunk with `finish_reason`; with `includeUsage`, every chunk has `usage: null` and a
 * last chunk has empty `choices` and the usage. `[DONE]` ends the stream.
 */
export function chatCompletionChunks(
  deltas: AsyncIterable<ChatDelta>,
  meta: CompletionMeta,
  includeUsage: boolean,
  options: ChatAnswerOptions = {},
): AsyncGenerator<SseEvent> {
  return stepAsync(deltas, chunkSteps(meta, includeUsage, options));
}

/** The chunks of `chatCompletionChunks` from deltas all at hand, pulled synchronously. */
export function chatCompletionChunksAtHand(
  deltas: AtHand<ChatDelta>,
  meta: CompletionMeta,
  includeUsage: boolean,
  options: ChatAnswerOptions = {},
): Iterable<SseEvent | Hold> {
  return stepAtHand(deltas, chunkSteps(meta, includeUsage, options));
}

/**
 * The chunks of a kept answer's stream (`spans` of its deltas, see ChatStream.keptAtHand): the same bytes as
 * `chatCompletionChunksAtHand` writes, rendered once per kept answer and variant, only the identity written per call
 * (undefined when not written so: see keptFrames).
 */
export function chatCompletionChunksKept(
  spans: KeptSpans,
  meta: CompletionMeta,
  includeUsage: boolean,
  options: ChatAnswerOptions = {},
): Iterable<SseEvent | Hold> | undefined {
  const legacy = options.legacyFunctions === true;
  const codec = includeUsage ? (legacy ? KEPT_USAGE_LEGACY : KEPT_USAGE) : legacy ? KEPT_LEGACY : KEPT_PLAIN;
  return keptFrames(spans, codec, meta);
}

/**
 * How an OpenAI stream's kept render of one variant is made: SSE frames whose chunks' JSON each open with their identity
 * (`identityText` of `object`), as the chat chunks' `header` and the legacy completions' `envelope` write it.
 */
export const openAiKeptCodec = (
  variant: string,
  object: string,
  stage: KeptStreamCodec<CompletionMeta, SseEvent>['stage'],
): KeptStreamCodec<CompletionMeta, SseEvent> => ({
  variant,
  stage,
  frame: sseFrame,
  blank: BLANK_META,
  probe: { id: `${object}-probe`, created: 1, model: 'probe' },
  identity: (meta) => identityText(object, meta),
});

/** How a kept chat stream of each variant (usage chunk or not, legacy function calls or not) is rendered. */
const keptCodec = (includeUsage: boolean, legacyFunctions: boolean) =>
  openAiKeptCodec(
    `openai-chat-stream${includeUsage ? '+usage' : ''}${legacyFunctions ? '+functions' : ''}`,
    'chat.completion.chunk',
    (deltas, meta) => chatCompletionChunksAtHand(deltas, meta, includeUsage, { legacyFunctions }),
  );
const KEPT_PLAIN = keptCodec(false, false);
const KEPT_USAGE = keptCodec(true, false);
const KEPT_LEGACY = keptCodec(false, true);
const KEPT_USAGE_LEGACY = keptCodec(true, true);

/** A chunk whose SSE frame was written around its changing parts up front, its data made only when something asks for it (the SSE writer reads the frame alone). */
class WrittenChunk implements NamedEvent {
  readonly frame: string;
  private readonly make: () => unknown;
  constructor(frame: string, make: () => unknown) {
    this.frame = frame;
    this.make = make;
  }
  get data(): unknown {
    return this.make();
  }
}

/** The chunks each delta makes, and the end marker. */
function chunkSteps(meta: CompletionMeta, includeUsage: boolean, options: ChatAnswerOptions): Steps<ChatDelta, SseEvent> {
  const base = header(meta, 'chat.completion.chunk');
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({
    data: { ...base, choices: [{ index, delta, logprobs: null, finish_reason: finish }], ...(includeUsage && { usage: null }) },
  });
  // The chunks of a plain answer (its opening, its pieces, its finish) have their frames written around what changes, the rest made once.
  const jsonHead = `${JSON.stringify(base).slice(0, -1)},"choices":[{"index":`;
  const contentHead = DATA_FRAME_START + jsonHead;
  const choiceJsonEnd = `}]${includeUsage ? ',"usage":null' : ''}}`;
  const choiceEnd = choiceJsonEnd + FRAME_END;
  // A piece's JSON after its text, and its frame's.
  const pieceTail = `},"logprobs":null,"finish_reason":null${choiceJsonEnd}`;
  const contentTail = pieceTail + FRAME_END;
  // Up to the piece, made once for the first choice (nearly every chunk's): a chunk is then three strings joined, not five.
  const firstChoicePrefix = `${contentHead}0,"delta":{"content":`;
  const prefixOf = (index: number) => (index === 0 ? firstChoicePrefix : `${contentHead}${index},"delta":{"content":`);
  const content = (index: number, text: string): NamedEvent =>
    new WrittenChunk(prefixOf(index) + JSON.stringify(text) + contentTail, () => chunk(index, { content: text }).data);
  const started = new Set<number>();
  const opening = (index: number, withCalls: boolean, out: SseEvent[]) => {
    if (started.has(index)) return;
    started.add(index);
    const json = `{"role":"assistant","content":${withCalls ? 'null' : '""'},"refusal":null`;
    const make = () => chunk(index, { role: 'assistant', content: withCalls ? null : '', refusal: null }).data;
    out.push(new WrittenChunk(`${contentHead}${index},"delta":${json}${contentTail}`, make));
  };
  const finishing = (index: number, finish: string): NamedEvent =>
    new WrittenChunk(
      `${contentHead}${index},"delta":{},"logprobs":null,"finish_reason":${JSON.stringify(finish)}${choiceEnd}`,
      () => chunk(index, {}, finish).data,
    );
  const legacy = options.legacyFunctions === true;
  // The reasoning part each choice is in, so a new part is set apart as in the whole answer's `reasoning_content`.
  const reasoningPart = new Map<number, number>();
  const step = (delta: ChatDelta, out: SseEvent[]): void => {
    switch (delta.type) {
      case 'text':
        opening(delta.choice, false, out);
        out.push(content(delta.choice, delta.text));
        break;
      case 'reasoning': {
        if (delta.text === '') break;
        opening(delta.choice, false, out);
        const previous = reasoningPart.get(delta.choice);
        reasoningPart.set(delta.choice, delta.part);
        const apart = previous !== undefined && previous !== delta.part ? REASONING_PART_SEPARATOR : '';
        out.push(chunk(delta.choice, { reasoning_content: apart + delta.text }));
        break;
      }
      case 'tool_call':
        opening(delta.choice, true, out);
        if (!legacy) {
          const call = { index: delta.call, id: delta.id, type: 'function', function: { name: delta.name, arguments: '' } };
          out.push(chunk(delta.choice, { tool_calls: [call] }));
        } else if (delta.call === 0) out.push(chunk(delta.choice, { function_call: { name: delta.name, arguments: '' } }));
        break;
      case 'tool_arguments':
        if (!legacy) out.push(chunk(delta.choice, { tool_calls: [{ index: delta.call, function: { arguments: delta.fragment } }] }));
        else if (delta.call === 0) out.push(chunk(delta.choice, { function_call: { arguments: delta.fragment } }));
        break;
      case 'finish':
        opening(delta.choice, false, out);
        out.push(finishing(delta.choice, finishOf(delta.reason, options)));
        break;
      case 'usage':
        if (includeUsage) out.push({ data: { ...base, choices: [], usage: usageOf(delta) } });
        break;
    }
  };
  const end = (out: SseEvent[]): void => {
    out.push(DONE);
  };
  // At hand, the text pieces of a choice already opened are written together: their frames made in one pass (flattened once, by the write).
  const gather = {
    joins: (delta: ChatDelta, run: readonly TextDelta[]) =>
      delta.type === 'text' && started.has(delta.choice) && (run.length === 0 || run[0]!.choice === delta.choice),
    made: (run: readonly TextDelta[]): SseEvent => {
      const index = run[0]!.choice;
      const shape = { head: `${jsonHead}${index},"delta":{"content":`, quoted: quotedTexts(run), tail: pieceTail };
      return new EventRun(shape, () => run.map((delta) => content(index, delta.text)));
    },
  };
  return { step, end, gather };
}

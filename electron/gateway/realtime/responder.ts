// Plans one realtime response with the chat model and streams it as its ordered server events: function calls, or a message in text or spoken audio with its transcript.
import { publicId } from '../ids.ts';
import { argumentFragments, streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import type { ChatChoice, ChatRequest, ChatResult, ChatUsage, ToolCall } from '../protocols/neutral/chat.ts';
import { encodeAudio, samplesPerUnit } from './audio-format.ts';
import type { Entry } from './conversation.ts';
import { dialectPartType } from './event-names.ts';
import type { SessionConfig } from './session-config.ts';
import { audioTokens, inputUsage, OUTPUT_AUDIO_TOKENS_PER_SECOND, type TokenSplit } from './usage.ts';

/** One response being produced, and how it reaches the client. */
export interface ResponseRun {
  id: string;
  config: SessionConfig;
  /** The items the model reads, oldest first. */
  context: readonly Entry[];
  beta: boolean;
  /** Sends one server event, named by its GA type. */
  emit(type: string, fields: Record<string, unknown>): void;
  /** An output item starts (`added`) or is finished (`done`): the session adds it to its conversation, if the response writes to one. */
  onItem(stage: 'added' | 'done', entry: Entry): void;
  /** Waits between deltas (the pace of the stream). */
  pause(): Promise<void>;
  /** True once the response was cancelled: streaming stops at the next delta. */
  cancelled(): boolean;
  /** The simulated voice's samples of `text` at `speed` (made off the event loop). */
  speak(text: string, speed: number): Promise<Int16Array>;
  /** The longest start of `text` the voice speaks at `speed` within one response's length limit. */
  speakable(text: string, speed: number): string;
}

/** What a finished response produced and used. */
export interface ResponseOutcome {
  output: Entry[];
  /** Tokens read and produced. */
  input: TokenSplit;
  produced: TokenSplit;
  /** `incomplete`: cut by max_output_tokens. */
  status: 'completed' | 'cancelled' | 'incomplete';
}

/** What the model answers, decided before anything is sent, so a refused request (e.g. a tool schema past the output limit) is one error. */
export interface ResponsePlan {
  request: ChatRequest;
  choice: ChatChoice;
  /** The chat model's own count of the answer (what an upstream reported, for a relayed model). */
  usage: ChatUsage;
}

/**
 * Decides the answer to `context` under `config` by asking the chat model for it whole (`complete`); rejects with a
 * GatewayError for a request the model refuses, before any response event is sent.
 */
export async function planResponse(
  config: ResponseRun['config'],
  context: readonly Entry[],
  complete: (request: ChatRequest) => Promise<ChatResult>,
): Promise<ResponsePlan> {
  const request = responseRequestOf(config, context);
  const result = await complete(request);
  return { request, choice: result.choices[0] ?? { text: '', toolCalls: [], finishReason: 'stop' }, usage: result.usage };
}

/** The chat request that plans a response to `context` under `config`. */
export function responseRequestOf(config: SessionConfig, context: readonly Entry[]): ChatRequest {
  return {
    model: config.model,
    ...(config.instructions && { system: config.instructions }),
    turns: context.flatMap((entry) => (entry.turn ? [entry.turn] : [])),
    ...(config.tools.length > 0 && { tools: config.tools, toolChoice: config.toolChoice }),
    ...(config.maxOutputTokens !== 'inf' && { maxTokens: config.maxOutputTokens }),
  };
}

/** Streams the planned answer as the run's events, paced by `run.pause()`, until it is done or cancelled. */
export async function streamResponse(run: ResponseRun, plan: ResponsePlan): Promise<ResponseOutcome> {
  const { request, choice } = plan;
  const input = inputUsage(request, run.context);
  const spent: TokenSplit = { text: 0, audio: 0 };
  const output: Entry[] = [];
  let cut = false;
  if (choice.toolCalls.length > 0) {
    for (const [index, call] of choice.toolCalls.entries()) {
      if (run.cancelled()) break;
      output.push(await streamCall(run, call, index, spent));
    }
  } else {
    const text = run.config.outputModalities[0] === 'audio' ? run.speakable(choice.text, run.config.speed) : choice.text;
    cut = choice.finishReason === 'length' || text !== choice.text;
    output.push(await streamMessage(run, text, cut, spent));
  }
  const status = run.cancelled() ? 'cancelled' : cut ? 'incomplete' : 'completed';
  return { output, input, produced: spent, status };
}

async function streamCall(run: ResponseRun, call: ToolCall, outputIndex: number, spent: TokenSplit): Promise<Entry> {
  const itemId = publicId('item');
  const at = { response_id: run.id, item_id: itemId, output_index: outputIndex, call_id: call.id };
  const item = {
    id: itemId,
    object: 'realtime.item',
    type: 'function_call',
    status: 'in_progress',
    call_id: call.id,
    name: call.name,
    arguments: '',
  };
  const entry: Entry = { item, turn: null };
  run.emit('response.output_item.added', { response_id: run.id, output_index: outputIndex, item });
  run.onItem('added', entry);
  let sent = '';
  for (const delta of argumentFragments(call.arguments)) {
    if (run.cancelled()) break;
    run.emit('response.function_call_arguments.delta', { ...at, delta });
    sent += delta;
    await run.pause();
  }
  spent.text += countTokens(sent);
  const complete = sent === call.arguments;
  entry.item = { ...item, status: complete ? 'completed' : 'incomplete', arguments: sent };
  entry.turn = { role: 'assistant', text: '', toolCalls: [{ ...call, arguments: sent }] };
  run.emit('response.function_call_arguments.done', { ...at, name: call.name, arguments: sent });
  run.emit('response.output_item.done', { response_id: run.id, output_index: outputIndex, item: entry.item });
  run.onItem('done', entry);
  return entry;
}

async function streamMessage(run: ResponseRun, text: string, cut: boolean, spent: TokenSplit): Promise<Entry> {
  const { config } = run;
  const spoken = config.outputModalities[0] === 'audio';
  const type = dialectPartType(spoken ? 'output_audio' : 'output_text', run.beta);
  const itemId = publicId('item');
  const at = { response_id: run.id, item_id: itemId, output_index: 0, content_index: 0 };
  const item = { id: itemId, object: 'realtime.item', type: 'message', role: 'assistant', status: 'in_progress', content: [] as unknown[] };
  const entry: Entry = { item, turn: null };
  run.emit('response.output_item.added', { response_id: run.id, output_index: 0, item });
  run.onItem('added', entry);
  run.emit('response.content_part.added', { ...at, part: spoken ? { type, transcript: '' } : { type, text: '' } });
  const pieces = streamPieces(text);
  const chunks = spoken ? audioChunks(await run.speak(text, config.speed), pieces, samplesPerUnit(config.outputFormat)) : [];
  let said = '';
  const sent: Int16Array[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (run.cancelled()) break;
    if (spoken) {
      const chunk = chunks[index]!;
      run.emit('response.output_audio.delta', { ...at, delta: encodeAudio(chunk, config.outputFormat).toString('base64') });
      run.emit('response.output_audio_transcript.delta', { ...at, delta: piece });
      sent.push(chunk);
    } else {
      run.emit('response.output_text.delta', { ...at, delta: piece });
    }
    said += piece;
    await run.pause();
  }
  if (spoken) {
    run.emit('response.output_audio.done', at);
    run.emit('response.output_audio_transcript.done', { ...at, transcript: said });
  } else {
    run.emit('response.output_text.done', { ...at, text: said });
  }
  const part = spoken ? { type, transcript: said } : { type, text: said };
  run.emit('response.content_part.done', { ...at, part });
  spent.text += countTokens(said);
  spent.audio += audioTokens(
    sent.reduce((sum, chunk) => sum + chunk.length, 0),
    OUTPUT_AUDIO_TOKENS_PER_SECOND,
  );
  const complete = said === text && !cut;
  entry.item = { ...item, status: complete ? 'completed' : 'incomplete', content: [part] };
  entry.turn = { role: 'assistant', text: said };
  if (spoken) entry.audio = concat(sent);
  run.emit('response.output_item.done', { response_id: run.id, output_index: 0, item: entry.item });
  run.onItem('done', entry);
  return entry;
}

/** The answer cut after the last piece that can be spoken within MAX_SPEECH_SECONDS, when the answer is spoken (the response is then incomplete). */

/**
 * The whole answer spoken once (the same voice as /v1/audio/speech, so it transcribes back), cut into one chunk per
 * text piece in proportion to the piece's bytes, on whole units of the output format; the chunks join back to the whole.
 */
function audioChunks(samples: Int16Array, pieces: string[], unit: number): Int16Array[] {
  const total = pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0) || 1;
  let seen = 0;
  let from = 0;
  return pieces.map((piece, index) => {
    seen += Buffer.byteLength(piece);
    const to = index === pieces.length - 1 ? samples.length : Math.floor((samples.length * seen) / total / unit) * unit;
    const chunk = samples.subarray(from, to);
    from = to;
    return chunk;
  });
}

function concat(chunks: Int16Array[]): Int16Array {
  const all = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  chunks.reduce((at, chunk) => (all.set(chunk, at), at + chunk.length), 0);
  return all;
}

// Produces one simulated realtime response as its ordered server events: output item, text or audio deltas with transcript, or function-call arguments.
import { publicId } from '../ids.ts';
import { synthesizeSpeech } from '../providers/simulate/fsk-voice.ts';
import { pcmBytes } from '../providers/simulate/pcm.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { argumentFragments, streamPieces } from '../providers/simulate/text/stream-pieces.ts';
import type { ChatTurn } from '../providers/simulate/text/types.ts';
import type { SessionConfig } from './session-config.ts';

/** Sends one server event (named by its GA type); resolves false once the response was cancelled. */
export type Emit = (type: string, fields: Record<string, unknown>) => Promise<boolean>;

/** What a finished response adds to the conversation and costs. */
export interface ResponseOutcome {
  item: Record<string, unknown>;
  turn: ChatTurn;
  usage: { inputTokens: number; outputTokens: number };
  cancelled: boolean;
}

/** Streams the answer to the conversation so far through `emit`. */
export async function streamResponse(responseId: string, config: SessionConfig, turns: ChatTurn[], partType: (t: 'output_text' | 'output_audio') => string, emit: Emit): Promise<ResponseOutcome> {
  const result = simulateChat({
    model: config.model,
    ...(config.instructions && { system: config.instructions }),
    turns,
    ...(config.tools.length > 0 && { tools: config.tools, toolChoice: config.toolChoice }),
  });
  const choice = result.choices[0]!;
  const itemId = publicId('item');
  const at = { response_id: responseId, item_id: itemId, output_index: 0 };
  const call = choice.toolCalls[0];
  if (call) {
    const item = { id: itemId, object: 'realtime.item', type: 'function_call', status: 'in_progress', call_id: call.id, name: call.name, arguments: '' };
    await emit('response.output_item.added', { response_id: responseId, output_index: 0, item });
    await emit('conversation.item.added', { item });
    let cancelled = false;
    for (const delta of argumentFragments(call.arguments)) {
      if (!(await emit('response.function_call_arguments.delta', { ...at, call_id: call.id, delta }))) {
        cancelled = true;
        break;
      }
    }
    const done = { ...item, status: cancelled ? 'incomplete' : 'completed', arguments: call.arguments };
    await emit('response.function_call_arguments.done', { ...at, call_id: call.id, name: call.name, arguments: call.arguments });
    await emit('response.output_item.done', { response_id: responseId, output_index: 0, item: done });
    await emit('conversation.item.done', { item: done });
    return { item: done, turn: { role: 'assistant', text: '', toolCalls: [call] }, usage: result.usage, cancelled };
  }

  const audio = config.outputModalities.includes('audio');
  const type = partType(audio ? 'output_audio' : 'output_text');
  const item = { id: itemId, object: 'realtime.item', type: 'message', role: 'assistant', status: 'in_progress', content: [] as unknown[] };
  await emit('response.output_item.added', { response_id: responseId, output_index: 0, item });
  await emit('conversation.item.added', { item });
  await emit('response.content_part.added', { ...at, content_index: 0, part: audio ? { type, transcript: '' } : { type, text: '' } });
  let said = '';
  let cancelled = false;
  const pieces = streamPieces(choice.text);
  const chunks = audio ? audioChunks(choice.text, pieces) : [];
  for (const [index, piece] of pieces.entries()) {
    const sent = audio
      ? (await emit('response.output_audio.delta', { ...at, content_index: 0, delta: chunks[index]!.toString('base64') })) &&
        (await emit('response.output_audio_transcript.delta', { ...at, content_index: 0, delta: piece }))
      : await emit('response.output_text.delta', { ...at, content_index: 0, delta: piece });
    if (!sent) {
      cancelled = true;
      break;
    }
    said += piece;
  }
  if (audio) {
    await emit('response.output_audio.done', { ...at, content_index: 0 });
    await emit('response.output_audio_transcript.done', { ...at, content_index: 0, transcript: said });
  } else {
    await emit('response.output_text.done', { ...at, content_index: 0, text: said });
  }
  const part = audio ? { type, transcript: said } : { type, text: said };
  await emit('response.content_part.done', { ...at, content_index: 0, part });
  const done = { ...item, status: cancelled ? 'incomplete' : 'completed', content: [part] };
  await emit('response.output_item.done', { response_id: responseId, output_index: 0, item: done });
  await emit('conversation.item.done', { item: done });
  return { item: done, turn: { role: 'assistant', text: said }, usage: result.usage, cancelled };
}

/**
 * The whole answer spoken once (the same voice as /v1/audio/speech, so it transcribes back), cut into one
 * chunk per text piece in proportion to the piece's bytes; the chunks join back to the whole.
 */
function audioChunks(text: string, pieces: string[]): Buffer[] {
  const bytes = pcmBytes(synthesizeSpeech(text));
  const total = Buffer.byteLength(text) || 1;
  let seen = 0;
  let from = 0;
  return pieces.map((piece, index) => {
    seen += Buffer.byteLength(piece);
    const to = index === pieces.length - 1 ? bytes.length : Math.floor((bytes.length * seen) / total / 2) * 2;
    const chunk = bytes.subarray(from, to);
    from = to;
    return chunk;
  });
}

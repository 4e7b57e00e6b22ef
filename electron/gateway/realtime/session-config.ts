// The realtime session's settings: the defaults a session starts with, and how `session.update` changes them.
import type { ToolChoice, ToolSpec } from '../providers/simulate/text/types.ts';
import { invalid } from '../services/errors.ts';
import { isObject, type Fields } from '../protocols/fields.ts';

/** What a session is set to. */
export interface SessionConfig {
  model: string;
  instructions: string;
  outputModalities: ('text' | 'audio')[];
  tools: ToolSpec[];
  toolChoice: ToolChoice;
  /** Server-side voice activity detection: speech start/stop from the appended audio, and automatic replies. */
  serverVad: boolean;
  voice: string;
}

export function defaultSessionConfig(model: string): SessionConfig {
  return { model, instructions: '', outputModalities: ['audio'], tools: [], toolChoice: 'auto', serverVad: true, voice: 'alloy' };
}

/** Applies a `session.update` payload; a field of the wrong type is an error naming it. */
export function updateSessionConfig(config: SessionConfig, session: Fields): SessionConfig {
  const next = { ...config };
  if (typeof session['instructions'] === 'string') next.instructions = session['instructions'];
  const modalities = session['output_modalities'] ?? session['modalities'];
  if (modalities !== undefined) {
    if (!Array.isArray(modalities) || modalities.length === 0 || !modalities.every((m) => m === 'text' || m === 'audio')) {
      throw invalid("Invalid value for 'session.output_modalities': expected ['text'] or ['audio'].", 'session.output_modalities');
    }
    next.outputModalities = modalities.includes('audio') ? ['audio'] : ['text'];
  }
  if (session['tools'] !== undefined) {
    if (!Array.isArray(session['tools'])) throw invalid("Invalid type for 'session.tools': expected an array.", 'session.tools');
    next.tools = session['tools'].map((tool, i) => {
      if (!isObject(tool) || typeof tool['name'] !== 'string') throw invalid(`Invalid value for 'session.tools[${i}]': a function needs a name.`, `session.tools[${i}]`);
      return { name: tool['name'], parameters: isObject(tool['parameters']) ? tool['parameters'] : { type: 'object', properties: {} } };
    });
  }
  const choice = session['tool_choice'];
  if (choice === 'auto' || choice === 'none' || choice === 'required') next.toolChoice = choice;
  else if (isObject(choice) && typeof choice['name'] === 'string') next.toolChoice = { name: choice['name'] };
  const audio = isObject(session['audio']) ? session['audio'] : undefined;
  const input = audio && isObject(audio['input']) ? audio['input'] : undefined;
  const turnDetection = input && 'turn_detection' in input ? input['turn_detection'] : session['turn_detection'];
  if (turnDetection !== undefined) next.serverVad = isObject(turnDetection);
  const output = audio && isObject(audio['output']) ? audio['output'] : undefined;
  const voice = output?.['voice'] ?? session['voice'];
  if (typeof voice === 'string') next.voice = voice;
  return next;
}

/** The session object sent in `session.created` / `session.updated`. */
export function presentSession(id: string, config: SessionConfig, beta: boolean) {
  const turnDetection = config.serverVad ? { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 200, create_response: true } : null;
  const tools = config.tools.map((tool) => ({ type: 'function', name: tool.name, parameters: tool.parameters }));
  const toolChoice = typeof config.toolChoice === 'object' ? { type: 'function', name: config.toolChoice.name } : config.toolChoice;
  if (beta) {
    return { id, object: 'realtime.session', model: config.model, modalities: config.outputModalities.includes('audio') ? ['audio', 'text'] : ['text'], instructions: config.instructions, voice: config.voice, input_audio_format: 'pcm16', output_audio_format: 'pcm16', turn_detection: turnDetection, tools, tool_choice: toolChoice };
  }
  return {
    type: 'realtime',
    object: 'realtime.session',
    id,
    model: config.model,
    output_modalities: config.outputModalities,
    instructions: config.instructions,
    tools,
    tool_choice: toolChoice,
    max_output_tokens: 'inf',
    audio: {
      input: { format: { type: 'audio/pcm', rate: 24000 }, turn_detection: turnDetection },
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: config.voice, speed: 1 },
    },
  };
}

// The realtime session's settings: the defaults a session starts with, and how `session.update` (GA or beta fields) changes them.
import { isObject, type Fields } from '../protocols/fields.ts';
import type { ToolChoice, ToolSpec } from '../protocols/neutral/chat.ts';
import type { AudioFormat } from './audio-format.ts';
import {
  expectBoolean,
  expectFormat,
  expectNumber,
  expectObject,
  expectString,
  invalidField,
  parseMaxTokens,
  parseMetadata,
  parseModalities,
  parseToolChoice,
  parseTools,
  parseVoice,
  type Modalities,
} from './fields.ts';

/** Server-side turn detection: speech start and stop from the loudness of the appended audio. */
export interface TurnDetection {
  type: 'server_vad' | 'semantic_vad';
  /** 0–1; a 10 ms frame is speech when its RMS level exceeds 0.04 × threshold of full scale. */
  threshold: number;
  prefixPaddingMs: number;
  silenceDurationMs: number;
  createResponse: boolean;
  interruptResponse: boolean;
  /** semantic_vad only: low, medium, high or auto (medium). */
  eagerness: 'low' | 'medium' | 'high' | 'auto';
  /** Echoed only: the simulator never triggers an idle timeout. */
  idleTimeoutMs: number | null;
}

/** Input audio transcription (runs on commit when set). */
export interface InputTranscription {
  model: string;
  language?: string;
  prompt?: string;
}

/** What a session is set to. */
export interface SessionConfig {
  model: string;
  instructions: string;
  outputModalities: Modalities;
  tools: ToolSpec[];
  toolChoice: ToolChoice;
  maxOutputTokens: number | 'inf';
  turnDetection: TurnDetection | null;
  transcription: InputTranscription | null;
  noiseReduction: Fields | null;
  inputFormat: AudioFormat;
  outputFormat: AudioFormat;
  voice: string;
  /** Speed of spoken answers, 0.25–1.5. */
  speed: number;
  /** Echoed only (beta). */
  temperature: number;
}

/** The silence that ends a turn under semantic VAD, by eagerness. */
const SEMANTIC_SILENCE_MS = { low: 1000, medium: 500, auto: 500, high: 250 } as const;

export function defaultTurnDetection(type: TurnDetection['type'] = 'server_vad'): TurnDetection {
  return {
    type,
    threshold: 0.5,
    prefixPaddingMs: 300,
    silenceDurationMs: 500,
    createResponse: true,
    interruptResponse: true,
    eagerness: 'auto',
    idleTimeoutMs: null,
  };
}

export function defaultSessionConfig(model: string): SessionConfig {
  return {
    model,
    instructions: '',
    outputModalities: ['audio'],
    tools: [],
    toolChoice: 'auto',
    maxOutputTokens: 'inf',
    turnDetection: defaultTurnDetection(),
    transcription: null,
    noiseReduction: null,
    inputFormat: 'pcm16',
    outputFormat: 'pcm16',
    voice: 'alloy',
    speed: 1,
    temperature: 0.8,
  };
}

/** What may no longer change once the session has spoken. */
export interface UpdateState {
  beta: boolean;
  /** True once assistant audio was produced: the voice is then fixed. */
  spoke: boolean;
}

/** Applies a `session.update` payload; only the fields present change, a field of the wrong type or value is an error naming it. */
export function updateSessionConfig(config: SessionConfig, session: Fields, state: UpdateState): SessionConfig {
  const next = { ...config };
  const { beta } = state;
  if (!beta && session['type'] !== 'realtime') {
    if (session['type'] === undefined)
      throw invalidField("Missing required parameter: 'session.type'.", 'session.type', 'missing_required_parameter');
    throw invalidField(
      `Invalid value: '${String(session['type'])}'. Supported values are: 'realtime' (transcription sessions are not simulated).`,
      'session.type',
    );
  }
  if (session['model'] !== undefined && session['model'] !== config.model) {
    throw invalidField("Cannot update a session's model: open a new connection with ?model=.", 'session.model');
  }
  if (session['instructions'] !== undefined) next.instructions = expectString(session['instructions'], 'session.instructions');
  const modalitiesKey = beta ? 'modalities' : 'output_modalities';
  if (session[modalitiesKey] !== undefined)
    next.outputModalities = parseModalities(session[modalitiesKey], `session.${modalitiesKey}`, beta);
  if (session['tools'] !== undefined) next.tools = parseTools(session['tools'], 'session.tools');
  if (session['tool_choice'] !== undefined) next.toolChoice = parseToolChoice(session['tool_choice'], 'session.tool_choice');
  const maxKey = beta ? 'max_response_output_tokens' : 'max_output_tokens';
  if (session[maxKey] !== undefined) next.maxOutputTokens = parseMaxTokens(session[maxKey], `session.${maxKey}`);
  if (beta) applyBetaAudio(next, session);
  else if (session['audio'] !== undefined) applyAudio(next, expectObject(session['audio'], 'session.audio'));
  if (next.voice !== config.voice && state.spoke) {
    throw invalidField(
      "Cannot update a conversation's voice if assistant audio is present.",
      beta ? 'session.voice' : 'session.audio.output.voice',
    );
  }
  return next;
}

/** GA `session.audio.{input,output}`. */
function applyAudio(next: SessionConfig, audio: Fields): void {
  if (audio['input'] !== undefined) {
    const input = expectObject(audio['input'], 'session.audio.input');
    if (input['format'] !== undefined) next.inputFormat = expectFormat(input['format'], 'session.audio.input.format', false);
    if ('turn_detection' in input)
      next.turnDetection = parseTurnDetection(input['turn_detection'], 'session.audio.input.turn_detection', next.turnDetection);
    if ('transcription' in input) next.transcription = parseTranscription(input['transcription'], 'session.audio.input.transcription');
    if ('noise_reduction' in input)
      next.noiseReduction =
        input['noise_reduction'] === null ? null : expectObject(input['noise_reduction'], 'session.audio.input.noise_reduction');
  }
  if (audio['output'] !== undefined) {
    const output = expectObject(audio['output'], 'session.audio.output');
    if (output['format'] !== undefined) next.outputFormat = expectFormat(output['format'], 'session.audio.output.format', false);
    if (output['voice'] !== undefined) next.voice = parseVoice(output['voice'], 'session.audio.output.voice');
    if (output['speed'] !== undefined) next.speed = expectNumber(output['speed'], 'session.audio.output.speed', 0.25, 1.5);
  }
}

/** Beta's flat audio fields. */
function applyBetaAudio(next: SessionConfig, session: Fields): void {
  if (session['input_audio_format'] !== undefined)
    next.inputFormat = expectFormat(session['input_audio_format'], 'session.input_audio_format', true);
  if (session['output_audio_format'] !== undefined)
    next.outputFormat = expectFormat(session['output_audio_format'], 'session.output_audio_format', true);
  if ('turn_detection' in session)
    next.turnDetection = parseTurnDetection(session['turn_detection'], 'session.turn_detection', next.turnDetection);
  if ('input_audio_transcription' in session)
    next.transcription = parseTranscription(session['input_audio_transcription'], 'session.input_audio_transcription');
  if ('input_audio_noise_reduction' in session) {
    next.noiseReduction =
      session['input_audio_noise_reduction'] === null
        ? null
        : expectObject(session['input_audio_noise_reduction'], 'session.input_audio_noise_reduction');
  }
  if (session['voice'] !== undefined) next.voice = parseVoice(session['voice'], 'session.voice');
  if (session['speed'] !== undefined) next.speed = expectNumber(session['speed'], 'session.speed', 0.25, 1.5);
  if (session['temperature'] !== undefined) next.temperature = expectNumber(session['temperature'], 'session.temperature', 0.6, 1.2);
}

function parseTurnDetection(value: unknown, path: string, current: TurnDetection | null): TurnDetection | null {
  if (value === null) return null;
  const fields = expectObject(value, path);
  const type = fields['type'] ?? current?.type ?? 'server_vad';
  if (type !== 'server_vad' && type !== 'semantic_vad')
    throw invalidField(`Invalid value for '${path}.type': expected 'server_vad' or 'semantic_vad'.`, `${path}.type`);
  const next = current && current.type === type ? { ...current } : defaultTurnDetection(type);
  if (fields['threshold'] !== undefined) next.threshold = expectNumber(fields['threshold'], `${path}.threshold`, 0, 1);
  if (fields['prefix_padding_ms'] !== undefined)
    next.prefixPaddingMs = Math.round(expectNumber(fields['prefix_padding_ms'], `${path}.prefix_padding_ms`, 0, 10_000));
  if (fields['silence_duration_ms'] !== undefined)
    next.silenceDurationMs = Math.round(expectNumber(fields['silence_duration_ms'], `${path}.silence_duration_ms`, 0, 10_000));
  if (fields['create_response'] !== undefined) next.createResponse = expectBoolean(fields['create_response'], `${path}.create_response`);
  if (fields['interrupt_response'] !== undefined)
    next.interruptResponse = expectBoolean(fields['interrupt_response'], `${path}.interrupt_response`);
  if (fields['idle_timeout_ms'] !== undefined) {
    next.idleTimeoutMs =
      fields['idle_timeout_ms'] === null
        ? null
        : Math.round(expectNumber(fields['idle_timeout_ms'], `${path}.idle_timeout_ms`, 5_000, 30_000));
  }
  if (fields['eagerness'] !== undefined) {
    const eagerness = fields['eagerness'];
    if (eagerness !== 'low' && eagerness !== 'medium' && eagerness !== 'high' && eagerness !== 'auto') {
      throw invalidField(`Invalid value for '${path}.eagerness': expected 'low', 'medium', 'high' or 'auto'.`, `${path}.eagerness`);
    }
    next.eagerness = eagerness;
  }
  if (type === 'semantic_vad') next.silenceDurationMs = SEMANTIC_SILENCE_MS[next.eagerness];
  return next;
}

function parseTranscription(value: unknown, path: string): InputTranscription | null {
  if (value === null) return null;
  const fields = expectObject(value, path);
  const model = fields['model'] === undefined ? 'whisper-1' : expectString(fields['model'], `${path}.model`);
  const language = fields['language'] === undefined ? undefined : expectString(fields['language'], `${path}.language`);
  const prompt = fields['prompt'] === undefined ? undefined : expectString(fields['prompt'], `${path}.prompt`);
  return { model, ...(language !== undefined && { language }), ...(prompt !== undefined && { prompt }) };
}

/** A `response.create` payload: overrides for this response only, which conversation it writes to, its metadata and input. */
export interface ResponseParams {
  config: SessionConfig;
  /** `auto`: the default conversation; `none`: out of band. */
  conversation: 'auto' | 'none';
  metadata: Record<string, string> | null;
  /** Items (raw, validated later) that replace the conversation as this response's context. */
  input?: unknown[];
}

/** Reads `response.create`'s `response` object over the session's settings. */
export function responseParams(config: SessionConfig, response: Fields, beta: boolean): ResponseParams {
  const next = { ...config };
  if (response['instructions'] !== undefined) next.instructions = expectString(response['instructions'], 'response.instructions');
  const modalitiesKey = beta ? 'modalities' : 'output_modalities';
  if (response[modalitiesKey] !== undefined)
    next.outputModalities = parseModalities(response[modalitiesKey], `response.${modalitiesKey}`, beta);
  if (response['tools'] !== undefined) next.tools = parseTools(response['tools'], 'response.tools');
  if (response['tool_choice'] !== undefined) next.toolChoice = parseToolChoice(response['tool_choice'], 'response.tool_choice');
  const maxKey = beta ? 'max_response_output_tokens' : 'max_output_tokens';
  const maxValue = response[maxKey] ?? response['max_output_tokens'];
  if (maxValue !== undefined)
    next.maxOutputTokens = parseMaxTokens(maxValue, `response.${response[maxKey] !== undefined ? maxKey : 'max_output_tokens'}`);
  if (beta) {
    if (response['voice'] !== undefined) next.voice = parseVoice(response['voice'], 'response.voice');
    if (response['output_audio_format'] !== undefined)
      next.outputFormat = expectFormat(response['output_audio_format'], 'response.output_audio_format', true);
  } else if (response['audio'] !== undefined) {
    const output = isObject(response['audio']) ? response['audio']['output'] : undefined;
    if (output !== undefined) {
      const fields = expectObject(output, 'response.audio.output');
      if (fields['voice'] !== undefined) next.voice = parseVoice(fields['voice'], 'response.audio.output.voice');
      if (fields['format'] !== undefined) next.outputFormat = expectFormat(fields['format'], 'response.audio.output.format', false);
    }
  }
  const conversation = response['conversation'] ?? 'auto';
  if (conversation !== 'auto' && conversation !== 'none')
    throw invalidField("Invalid value for 'response.conversation': expected 'auto' or 'none'.", 'response.conversation');
  const input = response['input'];
  if (input !== undefined && !Array.isArray(input))
    throw invalidField("Invalid type for 'response.input': expected an array of items.", 'response.input', 'invalid_type');
  return {
    config: next,
    conversation,
    metadata: response['metadata'] === undefined ? null : parseMetadata(response['metadata'], 'response.metadata'),
    ...(input !== undefined && { input }),
  };
}

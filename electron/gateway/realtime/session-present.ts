// The session object of `session.created` / `session.updated`, in the GA shape or the beta one.
import { betaFormat, gaFormat } from './audio-format.ts';
import type { SessionConfig, TurnDetection } from './session-config.ts';

export function presentSession(id: string, config: SessionConfig, beta: boolean, expiresAt: number) {
  const tools = config.tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description ?? '',
    parameters: tool.parameters,
  }));
  const toolChoice = typeof config.toolChoice === 'object' ? { type: 'function', name: config.toolChoice.name } : config.toolChoice;
  const turnDetection = config.turnDetection && presentTurnDetection(config.turnDetection);
  if (beta) {
    return {
      id,
      object: 'realtime.session',
      model: config.model,
      expires_at: expiresAt,
      modalities: config.outputModalities[0] === 'audio' ? ['audio', 'text'] : ['text'],
      instructions: config.instructions,
      voice: config.voice,
      speed: config.speed,
      input_audio_format: betaFormat(config.inputFormat),
      output_audio_format: betaFormat(config.outputFormat),
      input_audio_transcription: config.transcription,
      input_audio_noise_reduction: config.noiseReduction,
      turn_detection: turnDetection,
      tools,
      tool_choice: toolChoice,
      temperature: config.temperature,
      max_response_output_tokens: config.maxOutputTokens,
      tracing: null,
    };
  }
  return {
    type: 'realtime',
    object: 'realtime.session',
    id,
    model: config.model,
    expires_at: expiresAt,
    output_modalities: config.outputModalities,
    instructions: config.instructions,
    tools,
    tool_choice: toolChoice,
    max_output_tokens: config.maxOutputTokens,
    tracing: null,
    truncation: 'auto',
    prompt: null,
    include: null,
    audio: {
      input: {
        format: gaFormat(config.inputFormat),
        transcription: config.transcription,
        noise_reduction: config.noiseReduction,
        turn_detection: turnDetection,
      },
      output: { format: gaFormat(config.outputFormat), voice: config.voice, speed: config.speed },
    },
  };
}

function presentTurnDetection(detection: TurnDetection) {
  if (detection.type === 'semantic_vad') {
    return {
      type: 'semantic_vad',
      eagerness: detection.eagerness,
      create_response: detection.createResponse,
      interrupt_response: detection.interruptResponse,
    };
  }
  return {
    type: 'server_vad',
    threshold: detection.threshold,
    prefix_padding_ms: detection.prefixPaddingMs,
    silence_duration_ms: detection.silenceDurationMs,
    idle_timeout_ms: detection.idleTimeoutMs,
    create_response: detection.createResponse,
    interrupt_response: detection.interruptResponse,
  };
}

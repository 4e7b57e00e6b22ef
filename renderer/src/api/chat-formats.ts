// The playground's three wire formats: how a chat is sent (OpenAI, Anthropic, Gemini) and how each streamed event yields text.
import type { SseMessage } from './sse.ts';
import type { Fault } from '../../../shared/test-values.ts';
import type { ReplyStats } from './reply-stats.ts';
import { curlCommand } from './curl.ts';

export const CHAT_FORMATS = ['openai', 'anthropic', 'gemini'] as const;
export type ChatFormat = (typeof CHAT_FORMATS)[number];

/** A turn of the playground conversation; a reply carries its measures. */
export interface PlaygroundTurn {
  role: 'user' | 'assistant';
  text: string;
  stats?: ReplyStats;
}

/** The gateway's test values the playground can ask for (they map to the `x-gatehouse-*` headers). */
export interface PlaygroundTestValues {
  /** Stream pieces per second (`x-gatehouse-pace`); 0: as fast as possible. */
  pace: number;
  /** Delay before the answer (`x-gatehouse-latency-ms`); 0: none. */
  latencyMs: number;
  /** A fault (`x-gatehouse-fault`); '': none. */
  fault: Fault | '';
}

/** What the user set up. */
export interface ChatSettings extends PlaygroundTestValues {
  model: string;
  system: string;
  temperature: number;
  maxTokens: number;
  /** Streamed reply (server-sent events) or one JSON answer. */
  stream: boolean;
}

/** The test headers of the playground's settings (none when every test value is off). */
export function testHeaders(values: PlaygroundTestValues): Record<string, string> {
  return {
    ...(values.pace > 0 && { 'x-gatehouse-pace': String(values.pace) }),
    ...(values.latencyMs > 0 && { 'x-gatehouse-latency-ms': String(values.latencyMs) }),
    ...(values.fault && { 'x-gatehouse-fault': values.fault }),
  };
}

/** A ready HTTP request: path (joined to the gateway URL), headers and JSON body, and whether its answer streams. */
export interface WireRequest {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  stream: boolean;
}

/** What one streamed event (or a whole answer) means: text to append, the output tokens counted so far, the end, or an error. */
export type StreamStep = { text?: string; outputTokens?: number; done?: boolean; error?: string };

export function buildChatRequest(format: ChatFormat, settings: ChatSettings, turns: PlaygroundTurn[], apiKey: string): WireRequest {
  const request = wireRequest(format, settings, turns, apiKey);
  return { ...request, headers: { ...request.headers, ...testHeaders(settings) } };
}

function wireRequest(format: ChatFormat, settings: ChatSettings, turns: PlaygroundTurn[], apiKey: string): WireRequest {
  const system = settings.system.trim();
  switch (format) {
    case 'openai':
      return {
        stream: settings.stream,
        path: '/v1/chat/completions',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: {
          model: settings.model,
          messages: [
            ...(system ? [{ role: 'system', content: system }] : []),
            ...turns.map((turn) => ({ role: turn.role, content: turn.text })),
          ],
          temperature: settings.temperature,
          max_tokens: settings.maxTokens,
          stream: settings.stream,
          ...(settings.stream && { stream_options: { include_usage: true } }),
        },
      };
    case 'anthropic':
      return {
        stream: settings.stream,
        path: '/v1/messages',
        headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: {
          model: settings.model,
          max_tokens: settings.maxTokens,
          ...(system && { system }),
          messages: turns.map((turn) => ({ role: turn.role, content: turn.text })),
          temperature: settings.temperature,
          stream: settings.stream,
        },
      };
    case 'gemini':
      return {
        stream: settings.stream,
        path: `/v1beta/models/${encodeURIComponent(settings.model)}${settings.stream ? ':streamGenerateContent?alt=sse' : ':generateContent'}`,
        headers: { 'x-goog-api-key': apiKey, 'content-type': 'application/json' },
        body: {
          contents: turns.map((turn) => ({ role: turn.role === 'assistant' ? 'model' : 'user', parts: [{ text: turn.text }] })),
          ...(system && { systemInstruction: { parts: [{ text: system }] } }),
          generationConfig: { temperature: settings.temperature, maxOutputTokens: settings.maxTokens },
        },
      };
  }
}

/** Interprets one streamed event of a format. */
export function readStreamStep(format: ChatFormat, message: SseMessage): StreamStep {
  if (format === 'openai' && message.data === '[DONE]') return { done: true };
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(message.data) as Record<string, unknown>;
  } catch {
    return {};
  }
  return readPayload(format, payload, true);
}

/** Interprets a whole (unstreamed) answer of a format: its text and output tokens, or its error. */
export function readAnswer(format: ChatFormat, payload: Record<string, unknown>): StreamStep {
  return { ...readPayload(format, payload, false), done: true };
}

function readPayload(format: ChatFormat, payload: Record<string, unknown>, streamed: boolean): StreamStep {
  const error = payload['error'] as { message?: unknown } | undefined;
  if (error && typeof error.message === 'string') return { error: error.message };
  const tokens = (value: unknown) => (typeof value === 'number' ? { outputTokens: value } : {});
  switch (format) {
    case 'openai': {
      const choices = payload['choices'] as Array<{ delta?: { content?: unknown }; message?: { content?: unknown } }> | undefined;
      const text = streamed ? choices?.[0]?.delta?.content : choices?.[0]?.message?.content;
      const usage = payload['usage'] as { completion_tokens?: unknown } | undefined;
      return { ...(typeof text === 'string' && { text }), ...tokens(usage?.completion_tokens) };
    }
    case 'anthropic': {
      if (payload['type'] === 'message_stop') return { done: true };
      const usage = payload['usage'] as { output_tokens?: unknown } | undefined;
      if (!streamed) {
        const blocks = (payload['content'] as Array<{ type?: unknown; text?: unknown }> | undefined) ?? [];
        const text = blocks.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('');
        return { text, ...tokens(usage?.output_tokens) };
      }
      const delta = payload['delta'] as { type?: unknown; text?: unknown } | undefined;
      return payload['type'] === 'content_block_delta' && delta?.type === 'text_delta' && typeof delta.text === 'string'
        ? { text: delta.text }
        : tokens(usage?.output_tokens);
    }
    case 'gemini': {
      const candidates = payload['candidates'] as
        Array<{ content?: { parts?: Array<{ text?: unknown }> }; finishReason?: unknown }> | undefined;
      const parts = candidates?.[0]?.content?.parts ?? [];
      const text = parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
      const usage = payload['usageMetadata'] as { candidatesTokenCount?: unknown } | undefined;
      return { ...(text && { text }), ...tokens(usage?.candidatesTokenCount), ...(candidates?.[0]?.finishReason ? { done: true } : {}) };
    }
  }
}

/** The model id a format most likely wants among those listed. */
export function preferredModel(format: ChatFormat, models: string[]): string | undefined {
  const pattern = { openai: /^(gpt|o\d|sim)/i, anthropic: /^claude/i, gemini: /^gemini/i }[format];
  return models.find((model) => pattern.test(model)) ?? models[0];
}

/** The shell variable a copied command reads the token from (the Logs page's replay and the Overview snippets use it too). */
export const TOKEN_VARIABLE = '$TOKEN';

/** Headers that carry the caller's credential in each format, and how a copied command writes them with TOKEN_VARIABLE. */
const CREDENTIAL_HEADERS: Record<string, string> = {
  authorization: `Authorization: Bearer ${TOKEN_VARIABLE}`,
  'x-api-key': `x-api-key: ${TOKEN_VARIABLE}`,
  'x-goog-api-key': `x-goog-api-key: ${TOKEN_VARIABLE}`,
};

/**
 * The request as a curl command line (streaming shown with -N). The credential is never the playground's key (the
 * console may only know its hint): the command reads it from $TOKEN, so it works once `export TOKEN=sk-gh-…` is set.
 */
export function toCurl(baseUrl: string, request: WireRequest): string {
  const headers: Record<string, string> = {};
  const rawHeaders: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    const credential = CREDENTIAL_HEADERS[name.toLowerCase()];
    if (credential) rawHeaders.push(credential);
    else headers[name] = value;
  }
  return curlCommand({ url: `${baseUrl}${request.path}`, headers, rawHeaders, body: JSON.stringify(request.body), stream: request.stream });
}

// Relay channels as the admin API, the CLI and the console see them: the summary (never the key, only its hint) and the input.
import { scrubHead, scrubText, type HiddenSecret } from './secret-scrub.ts';

/** The wire protocols an upstream channel can speak: three chat relays, and two portrait and 3D services (`platform`, `volcengine`). */
export const CHANNEL_KINDS = ['openai', 'anthropic', 'gemini', 'platform', 'volcengine'] as const;
export type ChannelKindName = (typeof CHANNEL_KINDS)[number];

/** The kinds that serve the portrait library (and, for `platform`, 3D tasks) instead of chat: the highest-priority enabled one is the reviewer. */
export const SERVICE_CHANNEL_KINDS = ['platform', 'volcengine'] as const;
export type ServiceChannelKind = (typeof SERVICE_CHANNEL_KINDS)[number];

/** Whether a kind is a portrait/3D service rather than a chat relay. */
export function isServiceKind(kind: string): kind is ServiceChannelKind {
  return (SERVICE_CHANNEL_KINDS as readonly string[]).includes(kind);
}

/** Defaults of a `volcengine` channel's options. */
export const VOLCENGINE_DEFAULTS = {
  baseUrl: 'https://open.volcengineapi.com',
  region: 'cn-beijing',
  project: 'default',
} as const;

/** The chat APIs an `openai` channel's upstream may speak (the channel's `api`). */
export const CHANNEL_APIS = ['chat', 'responses'] as const;
export type ChannelApiName = (typeof CHANNEL_APIS)[number];

/**
 * What an `openai` channel's server understands of chat completions: `openai` (api.openai.com, Azure OpenAI) reads
 * `max_completion_tokens`, the `developer` role, `parallel_tool_calls` and reasoning fields; `compatible` (Ollama, llama.cpp,
 * LM Studio, vLLM and the like) reads `max_tokens` and `system`, and is sent neither of the others.
 */
export const CHANNEL_COMPATS = ['openai', 'compatible'] as const;
export type ChannelCompatName = (typeof CHANNEL_COMPATS)[number];

/** The profile of an `openai` channel: its own setting, or from its base URL (OpenAI's and Azure's hosts as `openai`, any other as `compatible`). */
export function compatOfChannel(baseUrl: string, setting: ChannelCompatName | null | undefined): ChannelCompatName {
  if (setting) return setting;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return 'compatible';
  }
  return host === 'api.openai.com' || host.endsWith('.openai.azure.com') || host.endsWith('.services.ai.azure.com')
    ? 'openai'
    : 'compatible';
}

/** A chat wire protocol: what a client speaks, or what an upstream channel speaks (its kind, and for `openai` its API). */
export type ChatWireName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** The chat wires a channel of `kind` speaks; an `openai` channel without a set API speaks both chat completions and Responses. */
export function wiresOfChannel(kind: ChannelKindName, api?: ChannelApiName | null): ChatWireName[] {
  switch (kind) {
    case 'openai':
      return api === 'chat' ? ['openai-chat'] : api === 'responses' ? ['openai-responses'] : ['openai-chat', 'openai-responses'];
    case 'anthropic':
      return ['anthropic'];
    case 'gemini':
      return ['gemini'];
    case 'platform':
    case 'volcengine':
      return [];
  }
}

/** Defaults of the optional channel fields. */
export const CHANNEL_DEFAULTS = {
  models: '*',
  priority: 0,
  weight: 1,
  timeoutMs: 60_000,
  /** Silence allowed between two body chunks: five minutes, as Envoy's stream idle timeout, so a reasoning model's slow first token is waited for. */
  idleTimeoutMs: 300_000,
  /** The whole call, headers to the last byte: thirty minutes, room for a long reasoning answer streamed slowly. */
  deadlineMs: 1_800_000,
} as const;

/**
 * The circuit breaker: after `failures` consecutive failed attempts a channel cools down for `firstCooldownMs`, each
 * further failure doubles it up to `maxCooldownMs`; one success ends it.
 */
export const CHANNEL_COOLDOWN = {
  failures: 3,
  firstCooldownMs: 30_000,
  maxCooldownMs: 300_000,
} as const;

/** How a channel's recent attempts went (times are epoch milliseconds). */
export interface ChannelHealth {
  /** Failed attempts in a row since the last success. */
  consecutive_failures: number;
  /** Until when the channel is skipped by routing; null when it is not cooling down (or no longer). */
  cooldown_until: number | null;
  last_error: string | null;
  last_error_at: number | null;
  /** Time to the response headers of the last attempt. */
  last_latency_ms: number | null;
  last_ok_at: number | null;
}

/** A channel as listed anywhere (CLI, admin API, console): never its key. */
export interface ChannelSummary {
  id: string;
  name: string;
  kind: ChannelKindName;
  /** What the provider's official SDK takes as its base URL. */
  base_url: string;
  /** The models it serves, comma-separated: `name`, `local=upstream` (renamed on the way out), `*` (every model). */
  models: string;
  priority: number;
  weight: number;
  /** Time to the upstream's response headers. */
  timeout_ms: number;
  /** Longest silence between two chunks of an upstream's answer before it is cut. */
  idle_timeout_ms: number;
  /** Longest time one upstream call may take, headers to last byte. */
  deadline_ms: number;
  /** `openai` channels: the chat API the upstream speaks (`chat` or `responses`); null for other kinds. */
  api: ChannelApiName | null;
  /** `openai` channels: the compatibility profile set (null: chosen from the base URL); null for other kinds. */
  compat: ChannelCompatName | null;
  /** `openai` channels: the profile in use (the setting, or the one the base URL gives); null for other kinds. */
  compat_profile: ChannelCompatName | null;
  /** Extra headers sent upstream on every call. */
  headers: Record<string, string>;
  enabled: boolean;
  /** A hint of the key such as `sk-…wxyz`; null when the channel has no key. */
  key_hint: string | null;
  /** `volcengine`: the region and project name requests are signed for and sent with; null for other kinds. */
  region?: string | null;
  project?: string | null;
  /** True for the one channel the portrait library registers new assets with (the highest-priority enabled platform or volcengine channel). */
  reviewer?: boolean;
  created_at: number;
  updated_at: number;
  health: ChannelHealth;
}

/**
 * The fields of a new channel (`name`, `kind`, `base_url` required) or of a change (every field optional).
 * `key` is write-only: a string sets it, null removes it, absent keeps it.
 */
export interface ChannelInput {
  name?: string;
  kind?: ChannelKindName;
  base_url?: string;
  models?: string;
  priority?: number;
  weight?: number;
  timeout_ms?: number;
  idle_timeout_ms?: number;
  deadline_ms?: number;
  api?: ChannelApiName;
  /** `openai` only: `openai` or `compatible`; `auto` (or empty) chooses from the base URL. */
  compat?: ChannelCompatName | 'auto' | '';
  headers?: Record<string, string>;
  enabled?: boolean;
  key?: string | null;
  /** `volcengine` only: empty or absent takes the default (`cn-beijing`, `default`). */
  region?: string;
  project?: string;
}

/** What one test call of a channel found. */
export interface ChannelTestResult {
  ok: boolean;
  /** Time to the upstream's answer (or to the failure). */
  latency_ms: number;
  /** `ok`, or the upstream's status and error message (or why it could not be reached). */
  message: string;
  /** Chat channels: the model the test chat was sent (as the upstream names it). */
  model?: string;
  /** A chat that succeeded: the first words of its answer (empty when the model said nothing within the test's budget). */
  answer?: string;
}

/** A channel's test within Test all: which channel, and what its test found. */
export interface ChannelTestRow extends ChannelTestResult {
  channel_id: string;
  name: string;
}

/** A hint of a secret safe to show: at most its first 3 and last 4 characters, and never more than a third of it. */
export function secretHint(secret: string): string {
  const shown = Math.floor(secret.length / 3);
  const head = Math.min(3, Math.floor(shown / 2));
  const tail = Math.min(4, shown - head);
  return `${secret.slice(0, head)}…${tail > 0 ? secret.slice(-tail) : ''}`;
}

/** The secrets a channel's key holds: the key, and each half of an `AK:SK` pair (an upstream may echo the access key id alone). */
export function keyParts(key: string | null | undefined): string[] {
  return key ? [key, ...key.split(':').filter((part) => part.length >= 4 && part !== key)] : [];
}

/**
 * `text` with every occurrence of `secret` (and of each half of an `AK:SK` pair) replaced by its hint (an upstream error may
 * echo the key), in any encoding a reader could decode (raw, JSON-escaped, percent-encoded, base64: `secret-scrub.ts`); as it
 * is without a secret.
 */
export function hideSecret(text: string, secret: string | null | undefined): string {
  return secret ? scrubText(text, hiddenParts(secret)) : text;
}

/** `bytes`, the start of a text that went on unread, with `secret` hidden as `hideSecret` hides it, and a tail that could begin it left out. */
export function hideSecretInHead(bytes: Uint8Array, secret: string | null | undefined): Uint8Array {
  return secret ? scrubHead(bytes, hiddenParts(secret)) : bytes;
}

/** The parts of a secret (see keyParts), each with its hint. */
function hiddenParts(secret: string): HiddenSecret[] {
  return keyParts(secret).map((part) => ({ secret: part, hint: secretHint(part) }));
}

// Provider presets: what adding a channel starts from (kind, base URL, compatibility profile, usual models), for the console and the CLI.
import type { ChannelCompatName, ChannelInput, ChannelKindName } from './channels.ts';

/** One provider a channel can be added for. */
export interface ChannelPreset {
  /** The name the CLI takes (`--preset ollama`), also the channel name suggested. */
  id: string;
  /** How the provider is shown. */
  label: string;
  kind: ChannelKindName;
  /** The base URL its official SDK (or the OpenAI SDK, for compatible servers) takes; `YOUR-…` marks a part to replace. */
  baseUrl: string;
  /** `openai` kinds: the compatibility profile (which output-limit field the server reads: see `outputLimitField`). */
  compat?: ChannelCompatName;
  /** Models it usually serves today, best known first; empty: read them with Fetch models (local servers list what is loaded). */
  models: readonly string[];
  /** A server on this machine that needs no key. */
  local?: boolean;
}

/** A placeholder in a preset's base URL the user must replace (Azure's resource name, a custom server's address). */
export const PRESET_PLACEHOLDER = /YOUR-[A-Z-]+/;

/**
 * The presets, in the order they are offered. Facts (base URLs, default ports, compatibility) as each provider documents
 * them in November 2026; models are a starting point: Fetch models reads the live list.
 */
export const CHANNEL_PRESETS: readonly ChannelPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    compat: 'openai',
    models: ['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.4-nano'],
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    kind: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    models: ['claude-opus-5', 'claude-sonnet-5', 'claude-haiku-4-5'],
  },
  {
    id: 'gemini',
    label: 'Google Gemini',
    kind: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com',
    models: ['gemini-3.5-flash', 'gemini-3.1-pro-preview', 'gemini-2.5-flash'],
  },
  { id: 'ollama', label: 'Ollama', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', compat: 'compatible', models: [], local: true },
  {
    id: 'lm-studio',
    label: 'LM Studio',
    kind: 'openai',
    baseUrl: 'http://127.0.0.1:1234/v1',
    compat: 'compatible',
    models: [],
    local: true,
  },
  {
    id: 'llama-cpp',
    label: 'llama.cpp (llama-server)',
    kind: 'openai',
    baseUrl: 'http://127.0.0.1:8080/v1',
    compat: 'compatible',
    models: [],
    local: true,
  },
  { id: 'vllm', label: 'vLLM', kind: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', compat: 'compatible', models: [], local: true },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    compat: 'compatible',
    models: ['openai/gpt-5.4', 'anthropic/claude-sonnet-5', 'google/gemini-3.5-flash'],
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    kind: 'openai',
    baseUrl: 'https://api.deepseek.com',
    compat: 'compatible',
    models: ['deepseek-chat', 'deepseek-reasoner'],
  },
  {
    id: 'groq',
    label: 'Groq',
    kind: 'openai',
    baseUrl: 'https://api.groq.com/openai/v1',
    compat: 'compatible',
    models: ['openai/gpt-oss-120b', 'llama-3.3-70b-versatile', 'llama-3.1-8b-instant'],
  },
  {
    id: 'mistral',
    label: 'Mistral AI',
    kind: 'openai',
    baseUrl: 'https://api.mistral.ai/v1',
    compat: 'compatible',
    models: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest'],
  },
  {
    id: 'together',
    label: 'Together AI',
    kind: 'openai',
    baseUrl: 'https://api.together.xyz/v1',
    compat: 'compatible',
    models: ['openai/gpt-oss-120b', 'meta-llama/Llama-3.3-70B-Instruct-Turbo', 'deepseek-ai/DeepSeek-V3'],
  },
  {
    id: 'moonshot',
    label: 'Moonshot AI (Kimi)',
    kind: 'openai',
    baseUrl: 'https://api.moonshot.ai/v1',
    compat: 'compatible',
    models: ['kimi-k2.6', 'kimi-k2.5'],
  },
  {
    id: 'zhipu',
    label: 'Zhipu GLM (BigModel)',
    kind: 'openai',
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    compat: 'compatible',
    models: ['glm-5.1', 'glm-5', 'glm-4.7-flash'],
  },
  {
    id: 'dashscope',
    label: 'Alibaba DashScope (Qwen)',
    kind: 'openai',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    compat: 'compatible',
    models: ['qwen-max', 'qwen-plus', 'qwen-turbo'],
  },
  {
    id: 'volcengine-ark',
    label: 'Volcengine Ark (Doubao)',
    kind: 'openai',
    baseUrl: 'https://ark.cn-beijing.volces.com/api/v3',
    compat: 'compatible',
    models: [],
  },
  {
    id: 'azure-openai',
    label: 'Azure OpenAI',
    kind: 'openai',
    baseUrl: 'https://YOUR-RESOURCE.openai.azure.com/openai/v1',
    compat: 'openai',
    models: [],
  },
  {
    id: 'custom',
    label: 'Custom OpenAI-compatible server',
    kind: 'openai',
    baseUrl: 'https://YOUR-SERVER/v1',
    compat: 'compatible',
    models: [],
  },
];

/** The preset named `id` (ignoring case), if any. */
export function presetById(id: string): ChannelPreset | undefined {
  const wanted = id.trim().toLowerCase();
  return CHANNEL_PRESETS.find((preset) => preset.id === wanted);
}

/**
 * The output-limit field a channel's server reads: `max_completion_tokens` (OpenAI profile), `max_tokens` (compatible
 * servers, Anthropic) or Gemini's `generationConfig.maxOutputTokens`.
 */
export function outputLimitField(kind: ChannelKindName, compat: ChannelCompatName | null | undefined): string {
  if (kind === 'gemini') return 'generationConfig.maxOutputTokens';
  if (kind === 'openai') return compat === 'openai' ? 'max_completion_tokens' : 'max_tokens';
  return 'max_tokens';
}

/** The fields a preset fills for a new channel (the name defaults to the preset's id; no models: every model, `*`). */
export function presetInput(preset: ChannelPreset, name = preset.id): ChannelInput {
  return {
    name,
    kind: preset.kind,
    base_url: preset.baseUrl,
    ...(preset.models.length > 0 && { models: preset.models.join(', ') }),
    ...(preset.compat !== undefined && { compat: preset.compat }),
  };
}

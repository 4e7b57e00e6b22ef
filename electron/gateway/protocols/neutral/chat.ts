// The protocol-neutral chat model that every text endpoint (OpenAI, Anthropic, Gemini, Responses, realtime) translates to and from.

/** A JSON Schema object as sent by clients (function parameters, response schemas). */
export type JsonSchema = Record<string, unknown>;

/** A function the model may call. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: JsonSchema;
}

/** A call of a tool by the model; `arguments` is a JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Gemini's `thoughtSignature` of the functionCall part: sent back with the call on the next turn, or Gemini refuses it. */
  thoughtSignature?: string;
}

/**
 * A piece of the model's reasoning, kept so the next turn can send it back: Anthropic `thinking` blocks (text and
 * signature) and `redacted_thinking` (opaque `data`), OpenAI-compatible `reasoning_content` (text only), Gemini thought
 * parts (text, and a `thoughtSignature` as `signature`), Responses `reasoning` items (summary text, `encrypted_content`
 * as `data`). A signature or data only makes sense to the protocol family named by `origin`.
 */
export interface Reasoning {
  text: string;
  signature?: string;
  /** Opaque reasoning the upstream hides (Anthropic redacted_thinking, Responses encrypted_content). */
  data?: string;
  /** The upstream family that produced the signature/data ('anthropic', 'gemini', 'openai'); others drop them. */
  origin?: string;
}

/** A piece of a user turn that is not plain text: an image by URL, or inline base64 data with its media type. */
export type MediaPart = { type: 'image'; url: string } | { type: 'image'; data: string; mediaType: string };

/** One turn of the conversation, after protocol translation. */
export type ChatTurn =
  | { role: 'system'; text: string }
  /** `text` joins the turn's text; `parts`, when present, is the whole turn in order (text and images). */
  | { role: 'user'; text: string; parts?: UserPart[] }
  | { role: 'assistant'; text: string; toolCalls?: ToolCall[]; reasoning?: Reasoning[] }
  /** `isError`: the tool failed (Anthropic `is_error`); `text` is its output or error message. */
  | { role: 'tool'; toolCallId: string; name?: string; text: string; isError?: boolean };

/** A user turn's content, in order. */
export type UserPart = { type: 'text'; text: string } | MediaPart;

/** How the model must choose tools. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** The output format asked for. */
export type OutputFormat = { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; schema: JsonSchema; name?: string };

/** A chat request in neutral form. */
export interface ChatRequest {
  model: string;
  /** System / developer instructions, joined. */
  system?: string;
  turns: ChatTurn[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  format?: OutputFormat;
  /** Output token limit; the output is cut there with finishReason `length`. */
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  /** Number of alternative choices (OpenAI `n`, Gemini `candidateCount`). */
  n?: number;
  temperature?: number;
  topP?: number;
  /** false: at most one tool call per answer (OpenAI `parallel_tool_calls`, Anthropic `disable_parallel_tool_use`). */
  parallelToolCalls?: boolean;
  /** Reasoning asked for: an effort level (OpenAI) and/or a token budget (Anthropic thinking, Gemini thinkingBudget). */
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high'; budgetTokens?: number };
  /** The caller wants reasoning text in the answer (Anthropic thinking enabled, Gemini includeThoughts). */
  includeReasoning?: boolean;
}

/** Why generation ended. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'stop_sequence' | 'content_filter';

/** One generated alternative. */
export interface ChatChoice {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** The stop sequence that ended the text, when finishReason is `stop_sequence`. */
  stopSequence?: string;
  /** Reasoning that came before the text, in order. */
  reasoning?: Reasoning[];
}

/** The model's answer. Token counts follow the documented estimate (see tokens.ts). */
export interface ChatResult {
  choices: ChatChoice[];
  usage: ChatUsage;
}

/** Token counts; the optional details are parts of the totals (cached input is in inputTokens, reasoning in outputTokens). */
export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

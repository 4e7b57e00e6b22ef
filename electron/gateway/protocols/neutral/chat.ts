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
}

/** One turn of the conversation, after protocol translation. */
export type ChatTurn =
  | { role: 'system'; text: string }
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name?: string; text: string };

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
}

/** Why generation ended. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'stop_sequence';

/** One generated alternative. */
export interface ChatChoice {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** The stop sequence that ended the text, when finishReason is `stop_sequence`. */
  stopSequence?: string;
}

/** The model's answer. Token counts follow the documented estimate (see tokens.ts). */
export interface ChatResult {
  choices: ChatChoice[];
  usage: { inputTokens: number; outputTokens: number };
}

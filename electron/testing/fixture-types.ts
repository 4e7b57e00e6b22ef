// The shape of a fixture as a test writes it (docs/testing-clients.md, "Scripted answers"), typed for editors; the gateway checks it.

/** A text test: a case-sensitive substring, or a regular expression. */
export type TextPattern = string | { regex: string; flags?: string };

/**
 * When a fixture answers: every field given must hold. Fields of endpoint families added later (portrait review,
 * 3D tasks) are accepted too; the gateway names any field it does not know.
 */
export interface FixtureMatch {
  /** `chat` (any chat protocol), `chat-completions`, `responses`, `messages`, `generate-content`, `embeddings`, …, or a list. */
  endpoint?: string | readonly string[];
  /** An exact name, a glob (`gpt-4o*`), or `/regular expression/flags`. */
  model?: string;
  /** The last user message's text. */
  user?: TextPattern;
  /** The system / developer / instructions text. */
  system?: TextPattern;
  /** A non-chat call's text (embeddings input, image prompt, text to speak, moderation input, rerank query). */
  input?: TextPattern;
  /** How many assistant messages the conversation has (0: the first call of an agent loop). */
  turn?: number;
  /** `true`: the last message is a tool result; a text test: it is one and its text matches. */
  tool_result?: boolean | TextPattern;
  tool_call_id?: string;
  /** Tool names the call must offer. */
  tools?: string | readonly string[];
  response_format?: 'text' | 'json_object' | 'json_schema';
  test_id?: string;
  [field: string]: unknown;
}

/** A scripted tool call. */
export interface FixtureToolCall {
  name: string;
  /** An object, or its JSON text. */
  arguments: unknown;
  id?: string;
}

/** What a fixture answers (one of a sequence). */
export interface FixtureResponse {
  text?: string;
  tool_calls?: readonly FixtureToolCall[];
  tools_first?: boolean;
  json?: unknown;
  reasoning?: string;
  usage?: { input_tokens?: number; output_tokens?: number; reasoning_tokens?: number; cached_input_tokens?: number };
  finish_reason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  /** The call fails with this status in the caller's error shape. */
  error?: { status?: number; message: string; type?: string; code?: string; headers?: Record<string, string> };
  stream?: { chunk_size?: number; ttft_ms?: number; tokens_per_second?: number; chunk_delay_ms?: number; cut_after?: number };
  embedding?: readonly number[];
  embeddings?: readonly (readonly number[])[];
  transcript?: string;
  moderation?: { flagged: boolean; categories?: readonly string[] };
  rerank?: readonly { index: number; relevance: number }[];
  [field: string]: unknown;
}

/** A fixture in Gatehouse's own format: a match and a response (or a sequence of them). */
export interface Fixture {
  /** How the journal, the admin API and strict-mode messages call it. */
  name?: string;
  match?: FixtureMatch;
  response?: FixtureResponse;
  /** The first matching call gets the first response, the second the second, …; used up, it no longer matches. */
  sequence?: readonly FixtureResponse[];
  /** Answers this many calls per test id, then no longer matches. */
  times?: number;
  /** Only calls with this `x-gatehouse-test-id` see it. */
  test_id?: string;
}

/** What `fixtures.add` takes: one fixture, a list, or a whole fixture file's content (an aimock file's `{ fixtures: [...] }` too). */
export type FixtureInput = Fixture | readonly Fixture[] | { fixtures: readonly unknown[] };

// The shape of a fixture as a test writes it (docs/testing-clients.md, "Scripted answers"), typed for editors; the gateway checks it.

/** A text test: a case-sensitive substring, a regular expression, or a glob over the whole text (`*`, `?`). */
export type TextPattern = string | { regex: string; flags?: string } | { glob: string };

/** When a fixture answers: every field given must hold. Other fields are left to the gateway, which names any it does not know. */
export interface FixtureMatch {
  /** `chat` (any chat protocol), `chat-completions`, `responses`, `messages`, `generate-content`, `embeddings`, `portrait`, `3d`, …, or a list. */
  endpoint?: string | readonly string[];
  /** An exact name, a glob (`gpt-4o*`), or `/regular expression/flags`. */
  model?: string;
  /** The last user message's text. */
  user?: TextPattern;
  /** The system / developer / instructions text. */
  system?: TextPattern;
  /** A non-chat call's text (embeddings input, image prompt, text to speak, moderation input, rerank query; an asset's name, a 3D prompt). */
  input?: TextPattern;
  /** A portrait asset's `url`, a 3D task's `image_url`. */
  url?: TextPattern;
  /** A portrait asset's type. */
  asset_type?: 'Image' | 'Video' | 'Audio';
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
  /** A portrait asset's review: its verdict, and when it is reached on the gateway's clock. */
  review?: { status: 'Active' | 'Failed'; reason?: string; delay_ms?: number; resolved_url?: string };
  /** A 3D task's course: its progress percentages, its final status and when, its file (fixture files only). */
  task3d?: {
    status: 'SUCCESS' | 'FAILURE';
    reason?: string;
    progress?: readonly number[];
    duration_ms?: number;
    file?: string;
    usage?: unknown;
  };
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

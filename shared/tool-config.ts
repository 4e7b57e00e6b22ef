// Contract of "Connect writes the config": the coding tools whose own config files the gateway edits, and the plan of a change as the console shows it.

/** The tools whose config files `gatehouse connect` and the Connect page write, in their order. */
export const CONNECT_TOOLS = ['claude-code', 'codex', 'gemini-cli'] as const;
export type ConnectTool = (typeof CONNECT_TOOLS)[number];

/** One line of a file's change: kept (` `), added (`+`) or removed (`-`). */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

/** One file of a tool's config and its change. */
export interface ToolFilePlan {
  /** Where it is, as the user knows it (`~/.claude/settings.json`). */
  path: string;
  /** False when the file does not exist yet (applying creates it). */
  existed: boolean;
  /** True when applying would change it. */
  changed: boolean;
  /** The change line by line; secrets (the gateway token, keys already in the file) are shown as hints. */
  diff: DiffLine[];
}

/** A tool's upstream found in its current config, which can become a relay channel. */
export interface ImportableUpstream {
  kind: 'openai' | 'anthropic' | 'gemini';
  baseUrl: string;
  /** The key's hint (never the key). */
  keyHint: string;
}

/** What connecting a tool would change, or what it changed. */
export interface ToolConfigPlan {
  tool: ConnectTool;
  /** The model written into the tool's config (suggested from the model list unless given). */
  model: string;
  /** The API token written into the config: the tool's own token (named after it), reused when its secret is kept. */
  tokenName: string;
  files: ToolFilePlan[];
  /** True when a backup of the files as they were before the first apply is kept: undo restores it. */
  backup: boolean;
  /** The real upstream the current config points to, if any (importable as a channel). */
  importable: ImportableUpstream | null;
}

/**
 * The body of an apply: the model to write (absent: the suggested one), the account whose token is written (default `local`)
 * and, for Gemini CLI, an absolute project folder to mark trusted (headless `gemini -p` refuses an untrusted folder).
 */
export interface ToolConfigApplyInput {
  model?: string;
  account?: string;
  trustFolder?: string;
}

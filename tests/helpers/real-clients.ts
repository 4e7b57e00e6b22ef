// Test helper: the real coding-tool CLIs from npm (`.ci/run` installs them in ~/.cache/gatehouse-clients), found or undefined with why.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The first candidate whose `--version` runs and prints `expected`. */
function firstRunning(candidates: (string | undefined)[], expected: RegExp): string | undefined {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 60_000 });
    if (probe.status === 0 && expected.test(probe.stdout)) return candidate;
  }
  return undefined;
}

/** Claude Code: `CLAUDE_CODE_BIN`, else `claude` on the PATH (npm's @anthropic-ai/claude-code); undefined when neither runs. */
export function claudeBinary(): string | undefined {
  return firstRunning([process.env['CLAUDE_CODE_BIN'] ?? 'claude'], /Claude Code/);
}

/** Codex: `CODEX_BIN`, else the one beside `CLAUDE_CODE_BIN` in the clients folder, else `codex` on the PATH. */
export function codexBinary(): string | undefined {
  const beside = process.env['CLAUDE_CODE_BIN'] ? path.join(path.dirname(process.env['CLAUDE_CODE_BIN']), 'codex') : undefined;
  return firstRunning([process.env['CODEX_BIN'], beside, 'codex'], /codex/i);
}

/** Gemini CLI: `GEMINI_CLI_BIN`, else the one in its own prefix that `.ci/run` installs, else `gemini` on the PATH (npm's @google/gemini-cli prints its bare version). */
export function geminiCliBinary(): string | undefined {
  const own = process.env['HOME']
    ? path.join(process.env['HOME'], '.cache', 'gatehouse-gemini-cli', 'node_modules', '.bin', 'gemini')
    : undefined;
  return firstRunning([process.env['GEMINI_CLI_BIN'], own, 'gemini'], /^\d+\.\d+\.\d+\s*$/);
}

/** Why a test of a missing CLI skips, printed by the test. */
export const CLAUDE_MISSING =
  'Claude Code is not installed (npm install --prefix ~/.cache/gatehouse-clients @anthropic-ai/claude-code, then CLAUDE_CODE_BIN=…/.bin/claude)';
export const CODEX_MISSING =
  'Codex is not installed (npm install --prefix ~/.cache/gatehouse-clients @openai/codex, then CODEX_BIN=…/.bin/codex)';
export const GEMINI_CLI_MISSING =
  'Gemini CLI is not installed (npm install --prefix ~/.cache/gatehouse-gemini-cli @google/gemini-cli@0.61.0, then GEMINI_CLI_BIN=…/.bin/gemini)';

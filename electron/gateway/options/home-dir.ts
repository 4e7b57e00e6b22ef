// The home folder whose coding tools Connect configures (`GATEHOUSE_HOME_DIR`, else the OS home) and the tools' own folder variables.
import os from 'node:os';
import { TOOLS, type ToolVariables } from '../services/tool-config/tools.ts';

/** The variable that names another home folder for Connect. */
export const HOME_DIR_ENV = 'GATEHOUSE_HOME_DIR';

/** The variables each tool reads for its own folder (Claude Code's, Codex's and Gemini CLI's), as their definitions name them. */
const TOOL_VARIABLES = Object.values(TOOLS).map((tool) => tool.movedBy.variable);

export function toolHomeDir(env: NodeJS.ProcessEnv): string {
  return env[HOME_DIR_ENV] || os.homedir();
}

/**
 * The tools' folder variables that are set, so Connect writes where the tool will read; none under `GATEHOUSE_HOME_DIR`,
 * which keeps Connect inside the home folder it names (tests, a sandboxed user) whatever the shell has set.
 */
export function toolVariables(env: NodeJS.ProcessEnv): ToolVariables {
  if (env[HOME_DIR_ENV]) return {};
  return Object.fromEntries(TOOL_VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

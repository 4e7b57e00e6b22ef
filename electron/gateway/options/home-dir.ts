// The home folder whose coding tools Connect configures: `GATEHOUSE_HOME_DIR` (tests, a sandboxed user), else the OS home.
import os from 'node:os';

/** The variable that names another home folder for Connect. */
export const HOME_DIR_ENV = 'GATEHOUSE_HOME_DIR';

export function toolHomeDir(env: NodeJS.ProcessEnv): string {
  return env[HOME_DIR_ENV] || os.homedir();
}

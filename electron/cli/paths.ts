// The default data dir in the user's config folder, matching where the desktop app keeps its data.
import os from 'node:os';
import path from 'node:path';

/** `$XDG_CONFIG_HOME/Gatehouse` (Linux), `~/Library/Application Support/Gatehouse` (macOS), `%APPDATA%\Gatehouse` (Windows). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'Gatehouse');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Gatehouse');
  return path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'Gatehouse');
}

// A tool's config files on disk: read (bounded), written atomically, and the backup of what was there before the first apply, restored by undo.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../atomic-write.ts';
import { GatewayError } from '../../errors.ts';
import type { FileTexts, ToolDefinition } from './tools.ts';

/** A tool's config file larger than this is refused (no tool writes one; the diff and the backup stay small). */
export const MAX_TOOL_CONFIG_BYTES = 256 * 1024;

/** The backup's name in the tool's folder. */
export const BACKUP_FILE = '.gatehouse-connect-backup.json';

/** What a backup holds: whether the folder existed, and each file's bytes (base64) or null when it did not exist. */
interface Backup {
  folder_existed: boolean;
  files: Record<string, string | null>;
}

/** The bytes of each of the tool's files (null: missing), each at most MAX_TOOL_CONFIG_BYTES. */
export function readToolBytes(home: string, tool: ToolDefinition): Record<string, Buffer | null> {
  const folder = path.join(home, tool.folder);
  return Object.fromEntries(
    tool.files.map((name) => {
      const file = path.join(folder, name);
      if (!existsSync(file)) return [name, null];
      if (statSync(file).size > MAX_TOOL_CONFIG_BYTES) {
        throw new GatewayError(
          'invalid_request',
          `${shownPath(tool, name)} is larger than ${MAX_TOOL_CONFIG_BYTES} bytes; Gatehouse leaves it alone`,
        );
      }
      return [name, readFileSync(file)];
    }),
  );
}

/** The files' texts (UTF-8). */
export const textsOf = (bytes: Record<string, Buffer | null>): FileTexts =>
  Object.fromEntries(Object.entries(bytes).map(([name, data]) => [name, data === null ? null : data.toString('utf8')]));

/** A file's path as the user knows it: `~/.claude/settings.json`. */
export const shownPath = (tool: ToolDefinition, name: string): string => `~/${tool.folder}/${name}`;

const backupPath = (home: string, tool: ToolDefinition) => path.join(home, tool.folder, BACKUP_FILE);

/** True when a backup of an earlier apply is kept. */
export const hasBackup = (home: string, tool: ToolDefinition): boolean => existsSync(backupPath(home, tool));

/**
 * Writes the new texts of the changed files. Before a file is first changed its bytes as they are (and, on the first apply,
 * whether the folder existed) are kept in the backup, written before any file changes; a later apply keeps what the backup
 * holds and adds only a file it did not touch before (Gemini CLI's trusted folders, written only when a folder is given).
 */
export function writeToolFiles(home: string, tool: ToolDefinition, before: Record<string, Buffer | null>, after: FileTexts): void {
  const folder = path.join(home, tool.folder);
  const kept = readBackup(home, tool);
  const backup: Backup = kept ?? { folder_existed: existsSync(folder), files: {} };
  const added = Object.keys(after).filter((name) => !(name in backup.files));
  for (const name of added) {
    const data = before[name] ?? null;
    backup.files[name] = data === null ? null : data.toString('base64');
  }
  if (!kept || added.length > 0) {
    mkdirSync(folder, { recursive: true });
    writeFileAtomic(backupPath(home, tool), `${JSON.stringify(backup, null, 2)}\n`);
  }
  for (const [name, text] of Object.entries(after)) {
    const old = before[name];
    if (text === null || (old && old.toString('utf8') === text)) continue;
    writeFileAtomic(path.join(folder, name), text);
  }
}

function readBackup(home: string, tool: ToolDefinition): Backup | null {
  const file = backupPath(home, tool);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Backup) : null;
}

/** The files' texts as the backup of the first apply has them; null when no backup is kept. */
export function backupTexts(home: string, tool: ToolDefinition): FileTexts | null {
  const backup = readBackup(home, tool);
  if (!backup) return null;
  return Object.fromEntries(
    Object.entries(backup.files).map(([name, data]) => [name, data === null ? null : Buffer.from(data, 'base64').toString('utf8')]),
  );
}

/**
 * Puts back every file the backup holds as it has it (a file that did not exist is removed, and the folder too when it was
 * made and is empty), then drops the backup; answers the names of the files put back. A file connecting never changed is left alone.
 */
export function restoreToolFiles(home: string, tool: ToolDefinition): string[] {
  const file = backupPath(home, tool);
  const backup = readBackup(home, tool);
  if (!backup) throw new GatewayError('not_found', `Nothing to undo: ~/${tool.folder} has no backup of an earlier connect`);
  const folder = path.join(home, tool.folder);
  for (const [name, data] of Object.entries(backup.files)) {
    const target = path.join(folder, name);
    if (data === null) rmSync(target, { force: true });
    else writeFileAtomic(target, Buffer.from(data, 'base64'));
  }
  rmSync(file);
  if (!backup.folder_existed && readdirSync(folder).length === 0) rmdirSync(folder);
  return Object.keys(backup.files);
}

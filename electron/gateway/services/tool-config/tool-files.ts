// A tool's config files on disk: read (bounded), written atomically, and the backup of what was there before the first apply, restored by undo.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../atomic-write.ts';
import { GatewayError } from '../../errors.ts';
import type { FileTexts, ToolDefinition, ToolVariables } from './tools.ts';

/** A tool's config file larger than this is refused (no tool writes one; the diff and the backup stay small). */
export const MAX_TOOL_CONFIG_BYTES = 256 * 1024;

/** The backup's name in the tool's folder. */
export const BACKUP_FILE = '.gatehouse-connect-backup.json';

/**
 * What a backup holds: whether the folder existed, each file's bytes (base64) or null when it did not exist, and each kept
 * file's permission bits (absent in backups written before they were kept: the file comes back at 0600).
 */
interface Backup {
  folder_existed: boolean;
  files: Record<string, string | null>;
  modes?: Record<string, number>;
}

/** Where a tool's files are: the home folder, and the tools' own variables that move their folders. */
export interface ToolPlace {
  home: string;
  variables?: ToolVariables | undefined;
}

/** The tool's folder: where its variable points when set, else its folder in the home folder. */
export function toolFolder(place: ToolPlace, tool: ToolDefinition): string {
  const moved = place.variables?.[tool.movedBy.variable];
  if (!moved) return path.join(place.home, tool.folder);
  return tool.movedBy.names === 'folder' ? moved : path.join(moved, tool.folder);
}

/** A file's path as the user knows it: `~/.claude/settings.json`, or the path its tool's variable leads to. */
export function shownPath(place: ToolPlace, tool: ToolDefinition, name: string): string {
  const file = path.join(toolFolder(place, tool), name);
  const inHome = path.relative(place.home, file);
  return inHome.startsWith('..') || path.isAbsolute(inHome) ? file : `~/${inHome.split(path.sep).join('/')}`;
}

/** The bytes of each of the tool's files (null: missing), each at most MAX_TOOL_CONFIG_BYTES. */
export function readToolBytes(place: ToolPlace, tool: ToolDefinition): Record<string, Buffer | null> {
  const folder = toolFolder(place, tool);
  return Object.fromEntries(
    tool.files.map((name) => {
      const file = path.join(folder, name);
      if (!existsSync(file)) return [name, null];
      if (statSync(file).size > MAX_TOOL_CONFIG_BYTES) {
        throw new GatewayError(
          'invalid_request',
          `${shownPath(place, tool, name)} is larger than ${MAX_TOOL_CONFIG_BYTES} bytes; Gatehouse leaves it alone`,
        );
      }
      return [name, readFileSync(file)];
    }),
  );
}

/** The files' texts (UTF-8). */
export const textsOf = (bytes: Record<string, Buffer | null>): FileTexts =>
  Object.fromEntries(Object.entries(bytes).map(([name, data]) => [name, data === null ? null : data.toString('utf8')]));

const backupPath = (place: ToolPlace, tool: ToolDefinition) => path.join(toolFolder(place, tool), BACKUP_FILE);

/** True when a backup of an earlier apply is kept. */
export const hasBackup = (place: ToolPlace, tool: ToolDefinition): boolean => existsSync(backupPath(place, tool));

/**
 * Writes the new texts of the changed files. Before a file is first changed its bytes as they are (and, on the first apply,
 * whether the folder existed) are kept in the backup, written before any file changes; a later apply keeps what the backup
 * holds and adds only a file it did not touch before (Gemini CLI's trusted folders, written only when a folder is given).
 */
export function writeToolFiles(place: ToolPlace, tool: ToolDefinition, before: Record<string, Buffer | null>, after: FileTexts): void {
  const folder = toolFolder(place, tool);
  const kept = readBackup(place, tool);
  const backup: Backup = kept ?? { folder_existed: existsSync(folder), files: {}, modes: {} };
  const added = Object.keys(after).filter((name) => !(name in backup.files));
  for (const name of added) {
    const data = before[name] ?? null;
    backup.files[name] = data === null ? null : data.toString('base64');
    // Its permission bits, which undo gives back (the files are written at 0600: they hold a token).
    if (data !== null) (backup.modes ??= {})[name] = statSync(path.join(folder, name)).mode & 0o7777;
  }
  if (!kept || added.length > 0) {
    mkdirSync(folder, { recursive: true });
    writeFileAtomic(backupPath(place, tool), `${JSON.stringify(backup, null, 2)}\n`);
  }
  for (const [name, text] of Object.entries(after)) {
    const old = before[name];
    if (text === null || (old && old.toString('utf8') === text)) continue;
    writeFileAtomic(path.join(folder, name), text);
  }
}

function readBackup(place: ToolPlace, tool: ToolDefinition): Backup | null {
  const file = backupPath(place, tool);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Backup) : null;
}

/** The files' texts as the backup of the first apply has them; null when no backup is kept. */
export function backupTexts(place: ToolPlace, tool: ToolDefinition): FileTexts | null {
  const backup = readBackup(place, tool);
  if (!backup) return null;
  return Object.fromEntries(
    Object.entries(backup.files).map(([name, data]) => [name, data === null ? null : Buffer.from(data, 'base64').toString('utf8')]),
  );
}

/**
 * Puts back every file the backup holds as it has it (a file that did not exist is removed, and the folder too when it was
 * made and is empty) with its permission bits, then drops the backup; answers the names of the files put back. A file
 * connecting never changed is left alone.
 */
export function restoreToolFiles(place: ToolPlace, tool: ToolDefinition): string[] {
  const file = backupPath(place, tool);
  const backup = readBackup(place, tool);
  const folder = toolFolder(place, tool);
  if (!backup) throw new GatewayError('not_found', `Nothing to undo: ${shownPath(place, tool, '')} has no backup of an earlier connect`);
  for (const [name, data] of Object.entries(backup.files)) {
    const target = path.join(folder, name);
    if (data === null) rmSync(target, { force: true });
    else {
      writeFileAtomic(target, Buffer.from(data, 'base64'));
      const mode = backup.modes?.[name];
      if (mode !== undefined) chmodSync(target, mode);
    }
  }
  rmSync(file);
  if (!backup.folder_existed && readdirSync(folder).length === 0) rmdirSync(folder);
  return Object.keys(backup.files);
}

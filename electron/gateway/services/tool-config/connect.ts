// "Connect writes the config": the plan of a tool's change shown as a diff, applying it with a backup, and undo restoring the backup.
import { secretHint } from '../../../../shared/channels.ts';
import type { ChannelInput, ChannelSummary } from '../../../../shared/channels.ts';
import type { ConnectTool, ToolConfigPlan } from '../../../../shared/tool-config.ts';
import path from 'node:path';
import { GatewayError } from '../../errors.ts';
import type { SecretStore } from '../../secrets/secret-store.ts';
import type { TokensService } from '../tokens.ts';
import { toolTokenSecret } from './connect-token.ts';
import { lineDiff } from './line-diff.ts';
import { suggestModel, type ModelChoice } from '../../../../shared/model-suggest.ts';
import {
  backupTexts,
  hasBackup,
  readToolBytes,
  restoreToolFiles,
  shownPath,
  textsOf,
  writeToolFiles,
  type ToolPlace,
} from './tool-files.ts';
import { TOOL_FAMILY, TOOLS, type ConnectTarget, type FileTexts, type FoundUpstream } from './tools.ts';

/** What connecting reads and writes: the home folder, the gateway's base URL, its tokens and secret store, and its model list. */
export interface ConnectContext extends ToolPlace {
  baseUrl: string;
  tokens: TokensService;
  secrets: SecretStore;
  models(): Promise<readonly ModelChoice[]>;
  now(): number;
  /** Adds a relay channel (its key to the secret store only); absent where channels cannot be added. */
  addChannel?(input: ChannelInput): Promise<ChannelSummary>;
}

/**
 * What to write: a model (absent: the suggested one), the account of the tool's token (default `local`) and, for a tool with
 * folder trust, a project folder to mark trusted (absolute; absent: trust is left as it is).
 */
export interface ConnectChoice {
  model?: string | undefined;
  account?: string | undefined;
  trustFolder?: string | undefined;
}

/** The longest folder path `trustFolder` takes. */
export const MAX_TRUST_FOLDER_CHARS = 4096;

/** The account whose token a tool gets unless another is chosen (the account of the first start). */
const DEFAULT_ACCOUNT = 'local';

/** How the plan shows the token before it exists: its name, never a secret. */
const tokenPlaceholder = (tool: ConnectTool) => `<API token "${tool}">`;

/** A model name as it can be written into every tool's file (a TOML or JSON string, a `.env` value). */
function checkModel(model: string): string {
  const trimmed = model.trim();
  if (trimmed === '' || trimmed.length > 256 || /[\u0000-\u001f"\\]/.test(trimmed)) {
    throw new GatewayError(
      'invalid_request',
      'model must be 1 to 256 characters without quotes, backslashes or control characters',
      'model',
    );
  }
  return trimmed;
}

/** The folder to trust, checked: only for a tool with folder trust, an absolute path of at most 4096 characters without control characters. */
function checkTrustFolder(tool: ConnectTool, folder: string | undefined): string | undefined {
  if (folder === undefined) return undefined;
  if (!TOOLS[tool].trustsFolders) throw new GatewayError('invalid_request', `${tool} has no trusted folders to set`, 'trustFolder');
  if (!path.isAbsolute(folder) || folder.length > MAX_TRUST_FOLDER_CHARS || /[\u0000-\u001f]/.test(folder)) {
    throw new GatewayError(
      'invalid_request',
      `trustFolder must be an absolute path of at most ${MAX_TRUST_FOLDER_CHARS} characters without control characters`,
      'trustFolder',
    );
  }
  return path.normalize(folder).replace(/(.)[\\/]+$/, '$1');
}

async function chosenModel(context: ConnectContext, tool: ConnectTool, choice: ConnectChoice): Promise<string> {
  if (choice.model !== undefined) return checkModel(choice.model);
  const suggested = suggestModel(await context.models(), TOOL_FAMILY[tool]);
  if (suggested === null) throw new GatewayError('invalid_request', 'No chat model is listed to suggest: name one with model', 'model');
  return suggested;
}

/** The upstream the files point to, unless it is this gateway; once connected, the one the backup (the files before) points to. */
function importable(
  context: Pick<ConnectContext, 'home' | 'variables' | 'baseUrl'>,
  tool: ConnectTool,
  current: FileTexts,
): FoundUpstream | null {
  const bare = (url: string) => url.replace(/\/+$/, '').replace(/\/v1$/, '');
  const real = (texts: FileTexts | null) => {
    const found = texts && TOOLS[tool].upstream(texts);
    return found && bare(found.baseUrl) !== bare(context.baseUrl) ? found : null;
  };
  return real(current) ?? real(backupTexts(context, TOOLS[tool]));
}

/** The plan of `after` over `current`, each secret shown as its hint. */
function planOf(
  context: ConnectContext,
  tool: ConnectTool,
  model: string,
  current: FileTexts,
  after: FileTexts,
  hidden: readonly string[],
): ToolConfigPlan {
  const definition = TOOLS[tool];
  const secrets = [...new Set(hidden.filter((secret) => secret.length >= 8))].sort((a, b) => b.length - a.length);
  const hide = (text: string) => secrets.reduce((shown, secret) => shown.split(secret).join(secretHint(secret)), text);
  const upstream = importable(context, tool, current);
  return {
    tool,
    model,
    tokenName: tool,
    // A file the change leaves out (the trusted folders when none is asked) is not shown.
    files: definition.files.flatMap((name) => {
      if (after[name] === undefined) return [];
      const before = current[name] ?? null;
      const next = after[name] ?? before;
      return {
        path: shownPath(context, definition, name),
        existed: before !== null,
        changed: next !== before,
        diff: lineDiff(before ?? '', next ?? '').map((line) => ({ op: line.op, text: hide(line.text) })),
      };
    }),
    backup: hasBackup(context, definition),
    importable: upstream && { kind: upstream.kind, baseUrl: upstream.baseUrl, keyHint: secretHint(upstream.key) },
  };
}

/** The tool's files as connecting `target` writes them; a file that cannot be merged is named by its path in the folder used. */
function written(place: ToolPlace, tool: ConnectTool, current: FileTexts, target: ConnectTarget): FileTexts {
  const definition = TOOLS[tool];
  return definition.write(current, target, (name) => shownPath(place, definition, name));
}

/** What applying would change now (the token shown by name); nothing is written and no token is made. */
export async function planConnect(context: ConnectContext, tool: ConnectTool, choice: ConnectChoice = {}): Promise<ToolConfigPlan> {
  const definition = TOOLS[tool];
  const current = textsOf(readToolBytes(context, definition));
  const model = await chosenModel(context, tool, choice);
  const trustFolder = checkTrustFolder(tool, choice.trustFolder);
  const after = written(context, tool, current, { baseUrl: context.baseUrl, secret: tokenPlaceholder(tool), model, trustFolder });
  return planOf(context, tool, model, current, after, definition.secrets(current));
}

/**
 * Writes the tool's config: the tool's token (reused or made), the base URL and the model merged into its files, the files
 * as they were kept in a backup first (on the first apply). Answers the change it made, secrets hidden.
 */
export async function applyConnect(context: ConnectContext, tool: ConnectTool, choice: ConnectChoice = {}): Promise<ToolConfigPlan> {
  const definition = TOOLS[tool];
  const before = readToolBytes(context, definition);
  const current = textsOf(before);
  const model = await chosenModel(context, tool, choice);
  const trustFolder = checkTrustFolder(tool, choice.trustFolder);
  // Every file is read and checked before a token is made: a file that cannot be merged changes nothing.
  written(context, tool, current, { baseUrl: context.baseUrl, secret: tokenPlaceholder(tool), model, trustFolder });
  const account = choice.account?.trim() || DEFAULT_ACCOUNT;
  const { secret } = await toolTokenSecret(context.tokens, context.secrets, tool, account, context.now());
  const after = written(context, tool, current, { baseUrl: context.baseUrl, secret, model, trustFolder });
  writeToolFiles(context, definition, before, after);
  return { ...planOf(context, tool, model, current, after, [...definition.secrets(current), secret]), backup: true };
}

/** Restores the files exactly as the backup of the first apply has them (a file that did not exist is removed again). */
export function undoConnect(place: ToolPlace, tool: ConnectTool): { restored: string[] } {
  const definition = TOOLS[tool];
  return { restored: restoreToolFiles(place, definition).map((name) => shownPath(place, definition, name)) };
}

/**
 * Adds the upstream the tool's config pointed to (before connecting, from the backup once connected) as a relay channel named
 * `name` (default `<tool>-import`) serving every model (`*`), its key going to the secret store only. 404 when there is none.
 */
export async function importConnect(context: ConnectContext, tool: ConnectTool, name?: string): Promise<ChannelSummary> {
  const found = importable(context, tool, textsOf(readToolBytes(context, TOOLS[tool])));
  if (!found) throw new GatewayError('not_found', `The config of ${tool} points to no upstream with a key to import`);
  if (!context.addChannel) throw new GatewayError('invalid_request', 'Channels cannot be added here');
  return context.addChannel({ name: name ?? `${tool}-import`, kind: found.kind, base_url: found.baseUrl, key: found.key, models: '*' });
}

// Each coding tool's own config files and what connecting it writes there: Claude Code's settings, Codex's config.toml, Gemini CLI's settings and .env.
import type { ConnectTool, ImportableUpstream } from '../../../../shared/tool-config.ts';
import { readDotenv, editDotenv } from './dotenv-edit.ts';
import { jsonText, mergeSection, readJsonObject, sectionOf } from './json-edit.ts';
import { editToml, readTomlString, tomlString } from './toml-edit.ts';

/** The texts of a tool's files by name (null: the file does not exist). */
export type FileTexts = Record<string, string | null>;

/** Where the tool is pointed: the gateway's base URL (no trailing slash), the API token's secret and the model. */
export interface ConnectTarget {
  baseUrl: string;
  secret: string;
  model: string;
  /** An absolute project folder to mark trusted where the tool has folder trust (Gemini CLI); absent: trust is left as it is. */
  trustFolder?: string | undefined;
}

/** An upstream the current config points to, with its key (which goes to the secret store only). */
export type FoundUpstream = Omit<ImportableUpstream, 'keyHint'> & { key: string };

/** The variables by which a tool is told to keep its config elsewhere, as the tools read them. */
export type ToolVariable = 'CLAUDE_CONFIG_DIR' | 'CODEX_HOME' | 'GEMINI_CLI_HOME';

/** Those of them that are set (empty strings left out). */
export type ToolVariables = Readonly<Partial<Record<ToolVariable, string>>>;

export interface ToolDefinition {
  /** The tool's folder in the home folder. */
  folder: string;
  /** The variable that moves it: to the folder it names (`folder`), or to `folder` under the home it names (`home`). */
  movedBy: { variable: ToolVariable; names: 'folder' | 'home' };
  /** Its files that connecting may change, in the folder. */
  files: readonly string[];
  /** Whether the tool has folder trust that connecting can set (`trustFolder`). */
  trustsFolders?: boolean;
  /**
   * The files' new texts (a file left out stays as it is); throws GatewayError naming the file (`shown(name)`, its path as
   * the user knows it, in the folder actually used) when one cannot be read safely (nothing is written then).
   */
  write(current: FileTexts, target: ConnectTarget, shown: (name: string) => string): FileTexts;
  /** The secrets in the current files, hidden in a diff. */
  secrets(current: FileTexts): string[];
  /** The upstream the current files point to with a key, if any (the gateway itself excepted). */
  upstream(current: FileTexts): FoundUpstream | null;
}

/** The variables of Claude Code's `env` block a gateway key would clash with: an API key is sent as `x-api-key` beside the token. */
const CLAUDE_CLASHING = ['ANTHROPIC_API_KEY'];

const claudeCode: ToolDefinition = {
  folder: '.claude',
  movedBy: { variable: 'CLAUDE_CONFIG_DIR', names: 'folder' },
  files: ['settings.json'],
  write(current, { baseUrl, secret, model }, shown) {
    const settings = readJsonObject(current['settings.json'] ?? null, shown('settings.json'));
    // The model for the main loop and for each alias Claude Code resolves (/model, subagents, background calls use haiku).
    const models = Object.fromEntries(
      ['ANTHROPIC_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL', 'ANTHROPIC_DEFAULT_HAIKU_MODEL'].map((name) => [
        name,
        model,
      ]),
    );
    mergeSection(
      settings,
      ['env'],
      { ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_AUTH_TOKEN: secret, ...models },
      CLAUDE_CLASHING,
      shown('settings.json'),
    );
    return { 'settings.json': jsonText(settings) };
  },
  secrets(current) {
    const env = envOfClaude(current);
    return [env?.['ANTHROPIC_API_KEY'], env?.['ANTHROPIC_AUTH_TOKEN']].filter((value): value is string => typeof value === 'string');
  },
  upstream(current) {
    const env = envOfClaude(current);
    const key = env?.['ANTHROPIC_API_KEY'] ?? env?.['ANTHROPIC_AUTH_TOKEN'];
    if (typeof key !== 'string' || key === '') return null;
    const base = env?.['ANTHROPIC_BASE_URL'];
    return { kind: 'anthropic', baseUrl: typeof base === 'string' && base !== '' ? base : 'https://api.anthropic.com', key };
  },
};

function envOfClaude(current: FileTexts): Record<string, unknown> | undefined {
  try {
    return sectionOf(readJsonObject(current['settings.json'] ?? null, 'settings.json'), ['env']);
  } catch {
    return undefined;
  }
}

/** The provider id connecting Codex adds and chooses. */
const CODEX_PROVIDER = 'gatehouse';

const codex: ToolDefinition = {
  folder: '.codex',
  movedBy: { variable: 'CODEX_HOME', names: 'folder' },
  files: ['config.toml'],
  write(current, { baseUrl, secret, model }) {
    const text = editToml(current['config.toml'] ?? '', {
      topLevel: { model: tomlString(model), model_provider: tomlString(CODEX_PROVIDER) },
      table: {
        name: `model_providers.${CODEX_PROVIDER}`,
        // The token in the file itself (not `env_key`), so Codex needs no variable in the shell that starts it.
        body: [
          'name = "Gatehouse"',
          `base_url = ${tomlString(`${baseUrl}/v1`)}`,
          'wire_api = "responses"',
          `experimental_bearer_token = ${tomlString(secret)}`,
        ],
      },
    });
    return { 'config.toml': text };
  },
  secrets(current) {
    const text = current['config.toml'] ?? '';
    const provider = readTomlString(text, null, 'model_provider');
    const tables = [CODEX_PROVIDER, ...(provider ? [provider] : [])];
    return tables
      .map((name) => readTomlString(text, `model_providers.${name}`, 'experimental_bearer_token'))
      .filter((value): value is string => value !== null);
  },
  upstream(current) {
    const text = current['config.toml'] ?? '';
    const provider = readTomlString(text, null, 'model_provider');
    if (provider === null || provider === CODEX_PROVIDER) return null;
    const key = readTomlString(text, `model_providers.${provider}`, 'experimental_bearer_token');
    const baseUrl = readTomlString(text, `model_providers.${provider}`, 'base_url');
    return key && baseUrl ? { kind: 'openai', baseUrl, key } : null;
  },
};

/** How Gemini CLI's `trustedFolders.json` marks a folder (and what is in it) trusted. */
const GEMINI_TRUST_FOLDER = 'TRUST_FOLDER';

const geminiCli: ToolDefinition = {
  folder: '.gemini',
  movedBy: { variable: 'GEMINI_CLI_HOME', names: 'home' },
  files: ['settings.json', '.env', 'trustedFolders.json'],
  trustsFolders: true,
  write(current, { baseUrl, secret, model, trustFolder }, shown) {
    const settingsFile = shown('settings.json');
    const settings = readJsonObject(current['settings.json'] ?? null, settingsFile);
    // Headless runs (`gemini -p`, CI) ask nothing: the auth type must be chosen in the settings.
    mergeSection(settings, ['security', 'auth'], { selectedType: 'gemini-api-key' }, [], settingsFile);
    mergeSection(settings, ['model'], { name: model }, [], settingsFile);
    // Gemini CLI reads one .env only, the first found from the project folder up: a project's own `.env` would hide
    // ~/.gemini/.env (and with it the gateway and its token). With this it passes over such generic files.
    mergeSection(settings, ['advanced'], { ignoreLocalEnv: true }, [], settingsFile);
    const written: FileTexts = {
      'settings.json': jsonText(settings),
      '.env': editDotenv(current['.env'] ?? null, { GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_API_KEY: secret }),
    };
    // With folder trust on (its default) an untrusted folder reads no ~/.gemini/.env and a headless run stops at once.
    if (trustFolder !== undefined) {
      const trustedFile = shown('trustedFolders.json');
      const trusted = readJsonObject(current['trustedFolders.json'] ?? null, trustedFile);
      mergeSection(trusted, [], { [trustFolder]: GEMINI_TRUST_FOLDER }, [], trustedFile);
      written['trustedFolders.json'] = jsonText(trusted);
    }
    return written;
  },
  secrets(current) {
    const key = readDotenv(current['.env'] ?? null)['GEMINI_API_KEY'];
    return key ? [key] : [];
  },
  upstream(current) {
    const env = readDotenv(current['.env'] ?? null);
    const key = env['GEMINI_API_KEY'];
    if (!key) return null;
    return { kind: 'gemini', baseUrl: env['GOOGLE_GEMINI_BASE_URL'] || 'https://generativelanguage.googleapis.com', key };
  },
};

/** Every tool's definition. */
export const TOOLS: Readonly<Record<ConnectTool, ToolDefinition>> = { 'claude-code': claudeCode, codex, 'gemini-cli': geminiCli };

/** The upstream family each tool speaks, whose models are suggested for it. */
export const TOOL_FAMILY: Readonly<Record<ConnectTool, 'anthropic' | 'openai' | 'gemini'>> = {
  'claude-code': 'anthropic',
  codex: 'openai',
  'gemini-cli': 'gemini',
};

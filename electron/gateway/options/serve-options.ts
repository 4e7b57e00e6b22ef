// Resolves a host's options (flags, their GATEHOUSE_* environment mirrors, the settings file, the defaults) into typed, validated ones.
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { REPLAY_MISS_MODES, type RecordConfig, type ReplayConfig, type ReplayMiss } from '../../../shared/cassette.ts';
import { checkAliasMap } from '../../../shared/model-aliases.ts';
import { normalizeOrigin, type SettingKey } from '../../../shared/settings.ts';
import { DEFAULTS } from '../config.ts';
import { choiceProblem, jsonPathProblem, MAX_DURATION_MS, replaySpeedProblem, wholeNumberProblem } from './given-values.ts';
import { UNROUTED_POLICIES, type UnroutedPolicy } from '../providers/select.ts';
import { normalizeHostName } from '../server/host-names.ts';
import type { SecretMode } from '../secrets/select-store.ts';
import { secretModeOf } from './command-options.ts';
import { readSaved, settingsFileOf } from './saved-settings.ts';
import { envValue, SERVE_ENV, SERVE_SECRET_ENV, switchOf } from './serve-env.ts';
import { UsageError } from './usage-error.ts';
import { adminTokenProblem, FIXED_TOKEN_RULE, isTokenLike } from '../ids.ts';

export { UsageError };

export { SERVE_ENV, SERVE_SECRET_ENV };

/** The switches among the options (no value; their environment variables take 1/0). */
type Switch = 'strict' | 'ephemeral' | 'ready-json' | 'record-simulated' | 'record-replace';

/** The option that sets each saved setting. */
const SETTING_OPTIONS = {
  host: 'host',
  port: 'port',
  tlsPort: 'tls-port',
  corsOrigins: 'cors-origins',
  refreshIntervalMs: 'refresh-interval-ms',
  dataDir: 'data-dir',
  unrouted: 'unrouted',
  modelAliases: 'model-aliases',
  secrets: 'secrets',
} as const satisfies Record<SettingKey, keyof typeof SERVE_ENV>;

export interface ServeOptions {
  host: string;
  port: number;
  /** null: no TLS listener. */
  tlsPort: number | null;
  dataDir: string;
  refreshIntervalMs: number;
  simReviewMs: number;
  sim3dMs: number;
  /** Browser origins allowed to call the API (`*`: any). */
  corsOrigins: string[];
  /** Extra names or addresses the Host header may carry, besides the loopback ones and `host`. */
  allowedHosts: string[];
  secrets: SecretMode;
  modelAliases: Record<string, string>;
  /** Record API calls for the console's Logs page. */
  journal: boolean;
  /** A model no channel serves: simulated, or the protocol's "model not found". */
  unrouted: UnroutedPolicy;
  /** Fixture files and folders (`--fixtures`, repeatable; `GATEHOUSE_FIXTURES` separated like PATH). */
  fixtures: string[];
  /** Refuse calls no fixture matches (`--strict`, `GATEHOUSE_STRICT=1`). */
  strict: boolean;
  /** `--record DIR` (with `--record-simulated`, `--record-replace`, `--record-redact`): exchanges saved as cassettes; absent: none. */
  record?: RecordConfig;
  /** `--replay DIR` (with `--replay-miss`, `--replay-ignore`, `--replay-speed`): calls answered from cassettes; absent: none. */
  replay?: ReplayConfig;
  /** A temporary data dir made at start and removed at exit (`--ephemeral`); the host makes it (dataDir is then unused). */
  ephemeral: boolean;
  /** Print one JSON line on stdout once listening (`--ready-json`). */
  readyJson: boolean;
  /** The admin token of this run (`GATEHOUSE_ADMIN_TOKEN`); absent: the kept console secret or a per-run one. */
  adminToken?: string;
  /** An API token `serve` accepts for the `local` account (`GATEHOUSE_TOKEN`), created when missing. */
  token?: string;
  /** The settings file read at start and written by the console's Settings page; null with `--settings-file off`. */
  settingsFile: string | null;
  /** The data dir used when neither a flag nor the settings file names one. */
  defaultDataDir: string;
  /** Settings given by a flag or environment variable on this run (they win over the settings file), with that flag's name. */
  pinned: Partial<Record<SettingKey, string>>;
}

/** The names of every option of `serve` (without the dashes). */
export const SERVE_OPTION_NAMES = Object.keys(SERVE_ENV) as readonly (keyof typeof SERVE_ENV)[];

/** The options that take one string (`--fixtures` repeats, the switches take none). */
type StringOption = Exclude<keyof typeof SERVE_ENV, 'fixtures' | Switch>;

const SERVE_FLAGS = {
  ...(Object.fromEntries(Object.keys(SERVE_ENV).map((name) => [name, { type: 'string' }])) as Record<
    keyof typeof SERVE_ENV,
    { type: 'string' }
  >),
  fixtures: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  'record-simulated': { type: 'boolean' },
  'record-replace': { type: 'boolean' },
  ephemeral: { type: 'boolean' },
  'ready-json': { type: 'boolean' },
} as const;

/**
 * Reads the options: a flag wins over its environment variable, which wins over the settings file, which wins over the defaults.
 * `baseDir` is the host's default data dir, also the folder of the default settings file (the CLI's user config folder, the
 * desktop app's app-data folder). Throws UsageError for a bad value.
 */
export function resolveServeOptions(args: string[], env: NodeJS.ProcessEnv, baseDir: string): ServeOptions {
  const { values, positionals } = parse(args, SERVE_FLAGS);
  if (positionals.length > 0)
    throw new UsageError(
      `serve takes no arguments besides its options; got ${positionals.map((word) => `"${word}"`).join(' ')} (under npm, put -- before the options: npm start -- --port 8800)`,
    );
  const explicit = (name: StringOption) => {
    const flag = values[name];
    if (typeof flag === 'string') return { value: flag, from: `--${name}` };
    const fromEnv = envValue(env, SERVE_ENV[name]);
    return fromEnv === undefined ? undefined : { value: fromEnv, from: SERVE_ENV[name] };
  };
  const switchOn = (name: Switch) => values[name] ?? switchOf(SERVE_ENV[name], env[SERVE_ENV[name]]);
  const ephemeral = switchOn('ephemeral');
  if (ephemeral && explicit('data-dir'))
    throw new UsageError(`--ephemeral makes a temporary data dir: it cannot be used with ${explicit('data-dir')!.from}`);
  const unrouted = explicit('unrouted');
  const unroutedProblem = unrouted && choiceProblem(unrouted.value, UNROUTED_POLICIES);
  if (unroutedProblem) throw new UsageError(`${unrouted.from} ${unroutedProblem}; got "${unrouted.value}"`);
  const fallbackDataDir = baseDir;
  // An ephemeral run reads no saved settings unless a file is named: a CI run is the same on every machine.
  const settingsFile = ephemeral && !explicit('settings-file') ? null : settingsFileOf(explicit('settings-file'), fallbackDataDir);
  const saved = settingsFile ? readSaved(settingsFile) : {};
  // A flag or variable wins over the saved choice; a temporary data dir keeps nothing in the user's keychain: its tokens die with it.
  const secrets = secretModeOf(explicit('secrets')?.value ?? (ephemeral ? 'none' : (saved.secrets ?? 'auto')));
  const pinned: Partial<Record<SettingKey, string>> = {};
  for (const [key, name] of Object.entries(SETTING_OPTIONS) as [SettingKey, StringOption][]) {
    const given = explicit(name);
    if (given) pinned[key] = given.from;
  }

  const portGiven = explicit('port');
  const port = portGiven ? integer(portGiven, DEFAULTS.port, 0, 65535) : (saved.port ?? DEFAULTS.port);
  const tls = explicit('tls-port');
  const savedTls = saved.tlsPort === undefined ? (port === 0 ? 0 : DEFAULTS.tlsPort) : saved.tlsPort;
  const interval = explicit('refresh-interval-ms');
  return {
    host: explicit('host')?.value ?? saved.host ?? DEFAULTS.host,
    port,
    // Default on: 8791, or a free port too when --port 0 asked for one; `off` disables the TLS listener.
    tlsPort: tls ? (tls.value === 'off' ? null : integer(tls, 0, 0, 65535)) : savedTls,
    dataDir: explicit('data-dir')?.value ?? saved.dataDir ?? fallbackDataDir,
    refreshIntervalMs: interval
      ? integer(interval, DEFAULTS.refreshIntervalMs, 1, MAX_DURATION_MS)
      : (saved.refreshIntervalMs ?? DEFAULTS.refreshIntervalMs),
    simReviewMs: integer(explicit('sim-review-ms'), DEFAULTS.simReviewMs, 0, MAX_DURATION_MS),
    sim3dMs: integer(explicit('sim-3d-ms'), DEFAULTS.sim3dMs, 0, MAX_DURATION_MS),
    corsOrigins: explicit('cors-origins') ? origins(explicit('cors-origins')!) : (saved.corsOrigins ?? []),
    allowedHosts: hostNames(explicit('allowed-hosts')),
    secrets,
    modelAliases: explicit('model-aliases') ? aliases(explicit('model-aliases')!) : (saved.modelAliases ?? {}),
    journal: onOff(explicit('journal'), true),
    unrouted: (unrouted?.value as UnroutedPolicy | undefined) ?? saved.unrouted ?? 'auto',
    fixtures: values.fixtures ?? (env[SERVE_ENV.fixtures] ?? '').split(path.delimiter).filter((entry) => entry !== ''),
    strict: switchOn('strict'),
    ...cassettesOf(explicit, switchOn('record-simulated'), switchOn('record-replace')),
    ephemeral,
    readyJson: switchOn('ready-json'),
    ...secretsOf(env),
    settingsFile,
    defaultDataDir: fallbackDataDir,
    pinned,
  };
}

/** `--record` and `--replay` with their companions, checked; a companion without its folder is a usage error. */
function cassettesOf(
  explicit: (name: StringOption) => { value: string; from: string } | undefined,
  simulated: boolean,
  replace: boolean,
): Pick<ServeOptions, 'record' | 'replay'> {
  const record = explicit('record');
  const replay = explicit('replay');
  const redact = explicit('record-redact');
  const miss = explicit('replay-miss');
  const ignore = explicit('replay-ignore');
  const speed = explicit('replay-speed');
  for (const [given, flag, needs] of [
    [redact, 'record-redact', record],
    [simulated ? { from: '--record-simulated' } : undefined, 'record-simulated', record],
    [replace ? { from: '--record-replace' } : undefined, 'record-replace', record],
    [miss, 'replay-miss', replay],
    [ignore, 'replay-ignore', replay],
    [speed, 'replay-speed', replay],
  ] as const) {
    if (given && !needs) throw new UsageError(`${given.from} needs --${flag.split('-')[0]} DIR`);
  }
  if (replace && record && replay && path.resolve(record.value) === path.resolve(replay.value))
    throw new UsageError('--record-replace re-records a folder: it cannot also be the --replay folder of the same run');
  const missProblem = miss && choiceProblem(miss.value, REPLAY_MISS_MODES);
  if (missProblem) throw new UsageError(`${miss.from} ${missProblem}; got "${miss.value}"`);
  const paths = (given: { value: string; from: string } | undefined, headers: boolean) =>
    (given?.value.split(',') ?? [])
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => {
        const problem = jsonPathProblem(entry, headers);
        if (problem !== null) throw new UsageError(`${given!.from}: ${problem}`);
        return entry;
      });
  let pace: number | undefined;
  if (speed) {
    pace = Number(speed.value);
    const problem = speed.value.trim() === '' ? replaySpeedProblem(Number.NaN) : replaySpeedProblem(pace);
    if (problem !== null) throw new UsageError(`${speed.from} ${problem}; got "${speed.value}"`);
  }
  return {
    ...(record && { record: { dir: path.resolve(record.value), simulated, replace, redact: paths(redact, true) } }),
    ...(replay && {
      replay: {
        dir: path.resolve(replay.value),
        miss: (miss?.value as ReplayMiss | undefined) ?? 'simulate',
        ignore: paths(ignore, false),
        speed: pace ?? 1,
      },
    }),
  };
}

/** `GATEHOUSE_ADMIN_TOKEN` and `GATEHOUSE_TOKEN`, checked (never echoed: they are secrets). */
function secretsOf(env: NodeJS.ProcessEnv): Pick<ServeOptions, 'adminToken' | 'token'> {
  const adminToken = env[SERVE_SECRET_ENV.adminToken] || undefined;
  const token = env[SERVE_SECRET_ENV.token] || undefined;
  const adminProblem = adminToken === undefined ? undefined : adminTokenProblem(adminToken);
  if (adminProblem) throw new UsageError(`${SERVE_SECRET_ENV.adminToken} ${adminProblem}`);
  if (token !== undefined && !isTokenLike(token))
    throw new UsageError(`${SERVE_SECRET_ENV.token} ${FIXED_TOKEN_RULE} (the value given does not look like a token)`);
  return { ...(adminToken && { adminToken }), ...(token && { token }) };
}

function onOff(given: { value: string; from: string } | undefined, fallback: boolean): boolean {
  if (!given) return fallback;
  if (given.value === 'on') return true;
  if (given.value === 'off') return false;
  throw new UsageError(`${given.from} must be on or off; got "${given.value}"`);
}

/** Comma-separated origins, each checked and normalized. */
function origins(given: { value: string; from: string }): string[] {
  const list: string[] = [];
  for (const entry of given.value.split(',')) {
    if (entry.trim() === '') continue;
    const origin = normalizeOrigin(entry);
    if (!origin)
      throw new UsageError(`${given.from} takes origins such as http://localhost:5173 (or *) separated by commas; got "${entry.trim()}"`);
    if (!list.includes(origin)) list.push(origin);
  }
  return list;
}

/** Comma-separated host names or IP addresses (IPv6 with or without brackets, no port), each normalized. */
function hostNames(given: { value: string; from: string } | undefined): string[] {
  const list: string[] = [];
  for (const entry of given?.value.split(',') ?? []) {
    if (entry.trim() === '') continue;
    const name = normalizeHostName(entry);
    if (!name)
      throw new UsageError(
        `${given!.from} takes host names or IP addresses such as gatehouse.lan or 192.168.1.20 (no scheme or port) separated by commas; got "${entry.trim()}"`,
      );
    if (!list.includes(name)) list.push(name);
  }
  return list;
}

/** parseArgs with unknown flags reported as a usage error. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function integer(given: { value: string; from: string } | undefined, fallback: number, min: number, max: number) {
  if (!given) return fallback;
  const value = /^\d+$/.test(given.value.trim()) ? Number(given.value) : Number.NaN;
  const problem = wholeNumberProblem(value, min, max);
  if (problem !== null) throw new UsageError(`${given.from} ${problem}; got "${given.value}"`);
  return value;
}

/** `name=target,name=target` into a map; an entry without both sides, or a map the saved setting would refuse, is a usage error. */
function aliases(given: { value: string; from: string }): Record<string, string> {
  const map: Record<string, string> = {};
  for (const entry of given.value.split(',')) {
    if (entry.trim() === '') continue;
    const [name, target, extra] = entry.split('=').map((part) => part.trim());
    if (!name || !target || extra !== undefined)
      throw new UsageError(`${given.from} takes name=model pairs separated by commas; got "${entry}"`);
    map[name] = target;
  }
  const checked = checkAliasMap(map);
  if (!checked.ok) throw new UsageError(`${given.from}: ${checked.message}`);
  return map;
}

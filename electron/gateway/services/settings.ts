// The Settings page's rules: what is saved, what this run uses, what a flag pins, and which changes apply now or at the next start.
import {
  LIVE_SETTINGS,
  SETTING_KEYS,
  validateSettings,
  type ServerSettings,
  type SettingKey,
  type SettingsView,
} from '../../../shared/settings.ts';
import { readSettingsFile, SettingsFileError, writeSettingsFile } from '../settings/settings-file.ts';
import { GatewayError, invalid } from '../errors.ts';
import { newAliasTargetProblem } from './alias-targets.ts';

/** Embedded defaults of the saved settings (the data dir's is the host's); the CLI's flags and environment variables override them. */
export const SETTING_DEFAULTS = {
  host: '127.0.0.1',
  port: 8790,
  /** The CLI's TLS port (the library starts no TLS listener unless asked). */
  tlsPort: 8791,
  /** The spec's background refresh interval: 5 minutes. */
  refreshIntervalMs: 300_000,
} as const;

/** How the host keeps saved settings, for the console's Settings page. */
export interface HostSettings {
  /** Path of the settings file (JSON). */
  file: string;
  /** The data dir used when the file names none. */
  defaultDataDir: string;
  /** Settings fixed on this run by a flag or environment variable, with its name. */
  pinned?: Partial<Record<SettingKey, string>>;
  /** The ports the host meant to use when it fell back to free ones because those were taken (so no restart is asked for). */
  intended?: { port: number; tlsPort: number | null };
}

/** The values this run started with, and the host's settings file when it keeps one. */
export interface SettingsContext {
  host?: HostSettings;
  started: ServerSettings & { dataDir: string };
}

/** The parts of the running gateway that take live settings. */
export interface LiveTargets {
  runtime: { corsOrigins: string[]; refreshIntervalMs: number };
  /** The background scan, which takes a new interval at once. */
  scheduler: { setIntervalMs(intervalMs: number): void };
}

/** What a value becomes at the next start when the file names none (a flag may still override it). */
function defaultOf(key: SettingKey, saved: Partial<ServerSettings>, defaultDataDir: string): ServerSettings[SettingKey] {
  switch (key) {
    case 'host':
      return SETTING_DEFAULTS.host;
    case 'port':
      return SETTING_DEFAULTS.port;
    case 'tlsPort':
      return (saved.port ?? SETTING_DEFAULTS.port) === 0 ? 0 : SETTING_DEFAULTS.tlsPort;
    case 'corsOrigins':
      return [];
    case 'refreshIntervalMs':
      return SETTING_DEFAULTS.refreshIntervalMs;
    case 'dataDir':
      return defaultDataDir;
    case 'unrouted':
      return 'auto';
    case 'modelAliases':
      return {};
    case 'secrets':
      return 'auto';
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function readSaved(host: HostSettings): Partial<ServerSettings> {
  try {
    return readSettingsFile(host.file);
  } catch (error) {
    if (error instanceof SettingsFileError) throw new GatewayError('internal', error.message);
    throw error;
  }
}

export function settingsView(settings: SettingsContext, live: LiveTargets): SettingsView {
  const { host, started } = settings;
  const effective: ServerSettings = {
    ...started,
    corsOrigins: [...live.runtime.corsOrigins],
    refreshIntervalMs: live.runtime.refreshIntervalMs,
  };
  if (!host) return { editable: false, file: null, saved: {}, defaults: effective, effective, pinned: {}, restartNeeded: [] };
  const saved = readSaved(host);
  const defaults = Object.fromEntries(
    SETTING_KEYS.map((key) => [key, defaultOf(key, saved, host.defaultDataDir)]),
  ) as unknown as ServerSettings;
  const pinned = host.pinned ?? {};
  const restartNeeded = SETTING_KEYS.filter((key) => {
    // A setting this run cannot say how it was chosen (the secret store of a gateway used as a library) waits for nothing.
    if (LIVE_SETTINGS.includes(key) || pinned[key] || started[key] === undefined) return false;
    const next = saved[key] !== undefined ? saved[key] : defaultOf(key, saved, host.defaultDataDir);
    return !same(next, started[key]);
  });
  return { editable: true, file: host.file, saved, defaults, effective, pinned, restartNeeded };
}

/**
 * Replaces the saved settings with `body` (absent keys: defaults) and applies the live ones that no flag pins. A setting
 * a flag or environment variable pins on this run keeps what the file held: this run's flag never leaks into the file.
 * `listed` is the ids of the models the gateway lists (not its aliases): a new or changed alias must stand for one of them.
 */
export function saveSettings(settings: SettingsContext, live: LiveTargets, body: unknown, listed: readonly string[] = []): SettingsView {
  const { host } = settings;
  if (!host)
    throw new GatewayError(
      'forbidden',
      'This server keeps no settings file (it was started with --settings-file off, or as a library): change its flags instead',
    );
  const checked = validateSettings(body);
  if (!checked.ok) throw invalid(checked.problems.map((problem) => problem.message).join('; '), checked.problems[0]!.key);
  const value = checked.value;
  const pinned = host.pinned ?? {};
  const saved = readSaved(host);
  for (const key of SETTING_KEYS) {
    if (!pinned[key]) continue;
    if (saved[key] === undefined) delete value[key];
    else (value as Record<SettingKey, unknown>)[key] = saved[key];
  }
  const badTarget = newAliasTargetProblem(value.modelAliases ?? {}, saved.modelAliases ?? {}, listed);
  if (badTarget) throw invalid(badTarget, 'modelAliases');
  if (value.dataDir === null) delete value.dataDir;
  writeSettingsFile(host.file, value);
  if (!pinned.corsOrigins) live.runtime.corsOrigins = value.corsOrigins ?? [];
  if (!pinned.refreshIntervalMs) {
    live.runtime.refreshIntervalMs = value.refreshIntervalMs ?? SETTING_DEFAULTS.refreshIntervalMs;
    live.scheduler.setIntervalMs(live.runtime.refreshIntervalMs);
  }
  return settingsView(settings, live);
}

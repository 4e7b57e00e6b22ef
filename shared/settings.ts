// The server settings a user can save (port, host, TLS, CORS origins, refresh interval, data folder, unrouted models, model aliases, secret store): shape, validation and what applies when.
import { checkAliasMap } from './model-aliases.ts';

/** Every saved setting and its value type. */
export interface ServerSettings {
  host: string;
  port: number;
  /** Port of the TLS listener; null: no TLS listener. */
  tlsPort: number | null;
  /** Browser origins (`https://app.example.com`, or `*`) allowed to call the API. */
  corsOrigins: string[];
  refreshIntervalMs: number;
  /** Folder of the SQLite file and generated files; null: the default folder. */
  dataDir: string | null;
  /**
   * A model no enabled relay channel serves: `simulate`d (the default) or answered with the protocol's "model not found" (`reject`).
   * Every gateway's view carries it; optional only for views made before it existed.
   */
  unrouted?: UnroutedPolicy;
  /**
   * Extra model names listed by the model lists, each standing for a model the gateway lists (name → target).
   * Every gateway's view carries it; optional only for views made before it existed.
   */
  modelAliases?: Record<string, string>;
  /**
   * Where tokens' and channel keys' secrets are kept (`--secrets`): `auto` (the OS keychain when one answers, else nothing),
   * `keychain`, `file` (a locked 0600 file in the data dir) or `none`. Optional only for views made before it existed.
   */
  secrets?: SecretStoreMode;
}

/** The secret store choices, shared by the saved setting, `--secrets` and `GATEHOUSE_SECRETS`. */
export const SECRET_STORE_MODES = ['auto', 'keychain', 'file', 'none'] as const;
export type SecretStoreMode = (typeof SECRET_STORE_MODES)[number];

/**
 * What a model no enabled relay channel serves gets: `auto` (the default) refuses it while at least one channel is
 * enabled and simulates it otherwise, `simulate` always simulates, `reject` always answers the protocol's "model not found".
 * Simulator models (`sim-*`, the test values) are simulated under `auto`.
 */
export const UNROUTED_POLICIES = ['auto', 'simulate', 'reject'] as const;
export type UnroutedPolicy = (typeof UNROUTED_POLICIES)[number];

export type SettingKey = keyof ServerSettings;

export const SETTING_KEYS = [
  'host',
  'port',
  'tlsPort',
  'corsOrigins',
  'refreshIntervalMs',
  'dataDir',
  'unrouted',
  'modelAliases',
  'secrets',
] as const satisfies readonly SettingKey[];

/** Settings a running gateway takes at once; the others apply when the server starts again. */
export const LIVE_SETTINGS: readonly SettingKey[] = ['corsOrigins', 'refreshIntervalMs'];

/** Longest refresh interval a timer can hold (about 24.8 days). */
export const MAX_INTERVAL_MS = 2 ** 31 - 1;

/** What the console's Settings page shows and edits. */
export interface SettingsView {
  /** False when the host keeps no settings file (the gateway used as a library); the page is then read-only. */
  editable: boolean;
  /** Path of the settings file. */
  file: string | null;
  /** What the file holds (absent keys take their defaults). */
  saved: Partial<ServerSettings>;
  /** What each setting becomes at the next start when the file names none (a flag may still override it). */
  defaults: ServerSettings;
  /** The values this run of the server was started with (CORS origins and refresh interval as changed since). */
  effective: ServerSettings;
  /** Settings fixed by a command-line flag or environment variable on this run, with its name: saving them has no effect until that is removed. */
  pinned: Partial<Record<SettingKey, string>>;
  /** Saved settings that differ from this run's and wait for a restart of the server. */
  restartNeeded: SettingKey[];
}

/** One rejected field of a settings change. */
export interface SettingProblem {
  key: SettingKey;
  message: string;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** A host name or IP address to listen on (no scheme, port or brackets). */
export function isListenHost(value: string): boolean {
  if (IPV4.test(value) || HOSTNAME.test(value)) return true;
  return value.split(':').length >= 3 && IPV6.test(value) && value.split('::').length <= 2;
}

/** True for an address that only this machine can reach. */
export function isLoopbackHost(value: string): boolean {
  return value === 'localhost' || value === '::1' || /^127\./.test(value);
}

/** `https://App.example.com:443/` → `https://app.example.com`; null when the text is not an http(s) origin (or `*`). */
export function normalizeOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '*') return '*';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  if (!/^[a-z]+:\/\/[^/]+\/?$/i.test(trimmed)) return null;
  return url.origin;
}

const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535;

/** Plain-data check that a path is absolute on POSIX (`/…`) or Windows (`C:\…`, `\\server\…`). */
export function isAbsolutePath(value: string): boolean {
  return value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value) || value.startsWith('\\\\');
}

/**
 * Checks a whole settings object as a user would save it. Every key is optional (absent: the default).
 * Returns the cleaned value (origins normalized, duplicates dropped) or every problem found.
 */
export function validateSettings(input: unknown): { ok: true; value: Partial<ServerSettings> } | { ok: false; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const value: Partial<ServerSettings> = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, problems: [{ key: 'host', message: 'Settings must be a JSON object' }] };
  }
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(SETTING_KEYS as readonly string[]).includes(key))
      problems.push({ key: key as SettingKey, message: `Unknown setting "${key}"; known: ${SETTING_KEYS.join(', ')}` });
  }
  const has = (key: SettingKey) => given[key] !== undefined;

  if (has('host')) {
    const host = given['host'];
    if (typeof host !== 'string' || !isListenHost(host.trim()))
      problems.push({
        key: 'host',
        message: 'Host must be a host name or IP address such as 127.0.0.1, ::1 or 0.0.0.0 (no http:// and no port)',
      });
    else value.host = host.trim();
  }
  if (has('port')) {
    if (!isPort(given['port'])) problems.push({ key: 'port', message: 'Port must be a whole number from 0 to 65535 (0: any free port)' });
    else value.port = given['port'] as number;
  }
  if (has('tlsPort')) {
    const tlsPort = given['tlsPort'];
    if (tlsPort !== null && !isPort(tlsPort))
      problems.push({ key: 'tlsPort', message: 'TLS port must be a whole number from 0 to 65535, or off' });
    else value.tlsPort = tlsPort as number | null;
  }
  if (
    value.port !== undefined &&
    value.tlsPort !== undefined &&
    value.tlsPort !== null &&
    value.port !== 0 &&
    value.port === value.tlsPort
  ) {
    problems.push({ key: 'tlsPort', message: 'The TLS port must differ from the HTTP port' });
  }
  if (has('corsOrigins')) {
    const origins = given['corsOrigins'];
    if (!Array.isArray(origins) || origins.some((item) => typeof item !== 'string')) {
      problems.push({ key: 'corsOrigins', message: 'CORS origins must be a list of origins such as https://app.example.com' });
    } else {
      const cleaned: string[] = [];
      for (const item of origins as string[]) {
        if (item.trim() === '') continue;
        const origin = normalizeOrigin(item);
        if (!origin)
          problems.push({
            key: 'corsOrigins',
            message: `"${item}" is not an origin: write scheme, host and optional port, such as http://localhost:5173, with no path`,
          });
        else if (!cleaned.includes(origin)) cleaned.push(origin);
      }
      value.corsOrigins = cleaned;
    }
  }
  if (has('refreshIntervalMs')) {
    const ms = given['refreshIntervalMs'];
    if (!Number.isInteger(ms) || (ms as number) < 1000 || (ms as number) > MAX_INTERVAL_MS) {
      problems.push({
        key: 'refreshIntervalMs',
        message: `Refresh interval must be a whole number of milliseconds from 1000 (1 second) to ${MAX_INTERVAL_MS}`,
      });
    } else value.refreshIntervalMs = ms as number;
  }
  if (has('dataDir')) {
    const dir = given['dataDir'];
    if (dir === null || (typeof dir === 'string' && dir.trim() === '')) value.dataDir = null;
    else if (typeof dir !== 'string' || !isAbsolutePath(dir.trim()))
      problems.push({ key: 'dataDir', message: 'Data folder must be an absolute path, or empty for the default folder' });
    else value.dataDir = dir.trim();
  }
  if (has('unrouted')) {
    const policy = given['unrouted'];
    if (!UNROUTED_POLICIES.includes(policy as UnroutedPolicy))
      problems.push({ key: 'unrouted', message: `Unrouted models must be one of ${UNROUTED_POLICIES.join(', ')}` });
    else value.unrouted = policy as UnroutedPolicy;
  }
  if (has('modelAliases')) {
    const checked = checkAliasMap(given['modelAliases']);
    if (!checked.ok) problems.push({ key: 'modelAliases', message: checked.message });
    else value.modelAliases = checked.value;
  }
  if (has('secrets')) {
    const mode = given['secrets'];
    if (!SECRET_STORE_MODES.includes(mode as SecretStoreMode))
      problems.push({ key: 'secrets', message: `Secret store must be one of ${SECRET_STORE_MODES.join(', ')}` });
    else value.secrets = mode as SecretStoreMode;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

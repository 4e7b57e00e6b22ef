// The environment variables that mirror serve's flags, and how a variable is read: empty is unset, a switch is 1/true/on or 0/false/off.
import { UsageError } from './usage-error.ts';

/** Each option of `serve` and the environment variable that mirrors it. */
export const SERVE_ENV = {
  host: 'GATEHOUSE_HOST',
  port: 'GATEHOUSE_PORT',
  'tls-port': 'GATEHOUSE_TLS_PORT',
  'data-dir': 'GATEHOUSE_DATA_DIR',
  'refresh-interval-ms': 'GATEHOUSE_REFRESH_INTERVAL_MS',
  'sim-review-ms': 'GATEHOUSE_SIM_REVIEW_MS',
  'sim-3d-ms': 'GATEHOUSE_SIM_3D_MS',
  'cors-origins': 'GATEHOUSE_CORS_ORIGINS',
  'allowed-hosts': 'GATEHOUSE_ALLOWED_HOSTS',
  secrets: 'GATEHOUSE_SECRETS',
  'model-aliases': 'GATEHOUSE_MODEL_ALIASES',
  'settings-file': 'GATEHOUSE_SETTINGS_FILE',
  journal: 'GATEHOUSE_JOURNAL',
  unrouted: 'GATEHOUSE_UNROUTED',
  fixtures: 'GATEHOUSE_FIXTURES',
  strict: 'GATEHOUSE_STRICT',
  record: 'GATEHOUSE_RECORD',
  'record-simulated': 'GATEHOUSE_RECORD_SIMULATED',
  'record-replace': 'GATEHOUSE_RECORD_REPLACE',
  'record-redact': 'GATEHOUSE_RECORD_REDACT',
  replay: 'GATEHOUSE_REPLAY',
  'replay-miss': 'GATEHOUSE_REPLAY_MISS',
  'replay-ignore': 'GATEHOUSE_REPLAY_IGNORE',
  'replay-speed': 'GATEHOUSE_REPLAY_SPEED',
  ephemeral: 'GATEHOUSE_EPHEMERAL',
  'ready-json': 'GATEHOUSE_READY_JSON',
} as const;

/** Settings read from the environment only (a secret on the command line would show in the process list). */
export const SERVE_SECRET_ENV = {
  adminToken: 'GATEHOUSE_ADMIN_TOKEN',
  token: 'GATEHOUSE_TOKEN',
} as const;

/** The value of the variable `name`, or undefined when it is unset or empty. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === '' ? undefined : value;
}

/** The values a switch's environment variable takes (any case), on and off. */
export const SWITCH_VALUES: { readonly on: readonly string[]; readonly off: readonly string[] } = {
  on: ['1', 'true', 'on'],
  off: ['0', 'false', 'off'],
};

/** A switch's environment variable: 1/true/on or 0/false/off (unset: off). */
export function switchOf(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (SWITCH_VALUES.on.includes(value.toLowerCase())) return true;
  if (SWITCH_VALUES.off.includes(value.toLowerCase())) return false;
  throw new UsageError(`${name} must be 1, true or on, or 0, false or off; got "${value}"`);
}

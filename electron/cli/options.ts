// Reads CLI flags with their GATEHOUSE_* environment mirrors into typed, validated options.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULTS } from '../gateway/config.ts';
import { SECRET_MODES, type SecretMode } from '../gateway/secrets/select-store.ts';
import { defaultDataDir } from './paths.ts';

/** A user mistake on the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Each option of `serve` and the environment variable that mirrors it. */
export const SERVE_ENV = {
  host: 'GATEHOUSE_HOST',
  port: 'GATEHOUSE_PORT',
  'tls-port': 'GATEHOUSE_TLS_PORT',
  'data-dir': 'GATEHOUSE_DATA_DIR',
  'refresh-interval-ms': 'GATEHOUSE_REFRESH_INTERVAL_MS',
  'sim-review-ms': 'GATEHOUSE_SIM_REVIEW_MS',
  'sim-3d-ms': 'GATEHOUSE_SIM_3D_MS',
  secrets: 'GATEHOUSE_SECRETS',
  'model-aliases': 'GATEHOUSE_MODEL_ALIASES',
} as const;

export interface ServeOptions {
  host: string;
  port: number;
  /** null: no TLS listener. */
  tlsPort: number | null;
  dataDir: string;
  refreshIntervalMs: number;
  simReviewMs: number;
  sim3dMs: number;
  secrets: SecretMode;
  modelAliases: Record<string, string>;
}

const SERVE_FLAGS = Object.fromEntries(Object.keys(SERVE_ENV).map((name) => [name, { type: 'string' }])) as Record<
  keyof typeof SERVE_ENV,
  { type: 'string' }
>;

export function parseServeOptions(args: string[], env: NodeJS.ProcessEnv): ServeOptions {
  const { values } = parse(args, SERVE_FLAGS);
  const pick = (name: keyof typeof SERVE_ENV) => {
    const flag = values[name];
    if (typeof flag === 'string') return { value: flag, from: `--${name}` };
    const fromEnv = env[SERVE_ENV[name]];
    return fromEnv !== undefined && fromEnv !== '' ? { value: fromEnv, from: SERVE_ENV[name] } : undefined;
  };
  const secrets = pick('secrets')?.value ?? 'auto';
  if (!SECRET_MODES.includes(secrets as SecretMode)) {
    throw new UsageError(`--secrets must be one of ${SECRET_MODES.join(', ')}; got "${secrets}"`);
  }
  const port = integer(pick('port'), DEFAULTS.port, 0, 65535);
  const tls = pick('tls-port');
  return {
    host: pick('host')?.value ?? DEFAULTS.host,
    port,
    // Default on: 8791, or a free port too when --port 0 asked for one; `off` disables the TLS listener.
    tlsPort: tls?.value === 'off' ? null : integer(tls, port === 0 ? 0 : DEFAULTS.tlsPort, 0, 65535),
    dataDir: pick('data-dir')?.value ?? defaultDataDir(env),
    refreshIntervalMs: integer(pick('refresh-interval-ms'), DEFAULTS.refreshIntervalMs, 1, 2 ** 31 - 1),
    simReviewMs: integer(pick('sim-review-ms'), DEFAULTS.simReviewMs, 0, 2 ** 31 - 1),
    sim3dMs: integer(pick('sim-3d-ms'), DEFAULTS.sim3dMs, 0, 2 ** 31 - 1),
    secrets: secrets as SecretMode,
    modelAliases: aliases(pick('model-aliases')),
  };
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
  const value = Number(given.value);
  if (!/^\d+$/.test(given.value.trim()) || value < min || value > max) {
    throw new UsageError(`${given.from} must be a whole number from ${min} to ${max}; got "${given.value}"`);
  }
  return value;
}

/** `name=target,name=target` into a map; an entry without both sides is a usage error. */
function aliases(given: { value: string; from: string } | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const entry of given?.value.split(',') ?? []) {
    if (entry.trim() === '') continue;
    const [name, target] = entry.split('=').map((part) => part.trim());
    if (!name || !target) throw new UsageError(`${given!.from} takes name=model pairs separated by commas; got "${entry}"`);
    map[name] = target;
  }
  return map;
}

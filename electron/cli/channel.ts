// `gatehouse channel add|list|update|remove|test`: manages the relay channels of a data dir, also while a server runs on it.
import { createInterface } from 'node:readline';
import {
  GatewayError,
  openChannelAdmin,
  parseHeaderLine,
  rfc3339,
  selectSecretStore,
  fetchChannelModels,
  testAllChannels,
  testChannel,
  type ChannelAdmin,
} from '../gateway/index.ts';
import { resolveDataDir, resolveSecretMode } from '../gateway/options/command-options.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import { CHANNEL_PRESETS, outputLimitField, presetById, presetInput, PRESET_PLACEHOLDER } from '../../shared/channel-presets.ts';
import type { ChannelInput, ChannelSummary, ChannelTestResult } from '../../shared/channels.ts';
import { defaultDataDir } from './paths.ts';
import type { Output } from './serve.ts';

const FLAGS = {
  'data-dir': { type: 'string' },
  secrets: { type: 'string' },
  name: { type: 'string' },
  kind: { type: 'string' },
  'base-url': { type: 'string' },
  models: { type: 'string' },
  priority: { type: 'string' },
  weight: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'idle-timeout-ms': { type: 'string' },
  'deadline-ms': { type: 'string' },
  api: { type: 'string' },
  compat: { type: 'string' },
  header: { type: 'string', multiple: true },
  'key-stdin': { type: 'boolean' },
  'key-env': { type: 'string' },
  enabled: { type: 'string' },
  json: { type: 'boolean' },
  model: { type: 'string' },
  region: { type: 'string' },
  project: { type: 'string' },
  preset: { type: 'string' },
  save: { type: 'boolean' },
  all: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parse<typeof FLAGS>>['values'];

export const CHANNEL_USAGE = `usage:
  gatehouse channel add --preset ID [--name NAME] [--base-url URL] [the other add flags]   (gatehouse channel presets lists them)
  gatehouse channel add --name NAME --kind openai|anthropic|gemini|platform|volcengine --base-url URL [--models LIST] [--priority N]
                        [--weight N] [--timeout-ms N] [--idle-timeout-ms N] [--deadline-ms N] [--api chat|responses]
                        [--compat auto|openai|compatible] [--header 'Name: value']... [--key-stdin | --key-env VAR]
                        [--region R --project P (volcengine; the key is AK:SK)] [--data-dir DIR] [--secrets MODE]
  gatehouse channel list [--json] [--data-dir DIR]
  gatehouse channel update NAME [the same flags] [--enabled true|false]
  gatehouse channel remove NAME [--data-dir DIR] [--secrets MODE]
  gatehouse channel test NAME [--model M] [--data-dir DIR] [--secrets MODE]
  gatehouse channel test --all [--data-dir DIR] [--secrets MODE]
  gatehouse channel models NAME [--save] [--data-dir DIR] [--secrets MODE]
  gatehouse channel presets`;

/** Runs one `channel` action; resolves with the exit code (1: a failed test or a store that failed). */
export async function channel(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const { values, positionals } = parse(args, FLAGS);
  const [action, target, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"\n\n${CHANNEL_USAGE}`);
  if (action === 'presets') {
    for (const preset of CHANNEL_PRESETS) io.out(describePreset(preset));
    return 0;
  }
  const dataDir = resolveDataDir(values['data-dir'], env, defaultDataDir(env));
  const key = await keyOf(values, env);
  // The secret store is opened only when a key is read, written or deleted.
  const needsStore = key !== undefined || action === 'remove' || action === 'test' || action === 'models';
  const store = needsStore ? await openStore(values, env, dataDir, io) : (await selectSecretStore('none', dataDir)).store;
  const admin = openChannelAdmin(dataDir, store);
  try {
    return await run(admin, action, target, values, key, io);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.kind === 'invalid_request' || error.kind === 'not_found') throw new UsageError(asFlags(error));
    io.err(`gatehouse: ${error.message}`);
    return 1;
  } finally {
    admin.close();
  }
}

async function run(
  admin: ChannelAdmin,
  action: string | undefined,
  target: string | undefined,
  values: Values,
  key: string | undefined,
  io: Output,
): Promise<number> {
  const { channels } = admin;
  const named = () => {
    if (!target) throw new UsageError(`channel ${action} needs the channel's NAME\n\n${CHANNEL_USAGE}`);
    return target;
  };
  switch (action) {
    case 'add': {
      if (target) throw new UsageError(`channel add takes the name as --name ${target}`);
      const created = await channels.add({ ...presetOf(values), ...inputOf(values, key) });
      io.out(describe(created));
      io.out(created.id);
      return 0;
    }
    case 'list': {
      const list = channels.list();
      if (values.json) io.out(JSON.stringify(list, null, 2));
      else for (const item of list) io.out(describe(item));
      return 0;
    }
    case 'update':
      io.out(describe(await channels.update(named(), inputOf(values, key))));
      return 0;
    case 'remove': {
      const removed = await channels.remove(named());
      io.out(`removed ${removed.name} (${removed.id})`);
      return 0;
    }
    case 'test': {
      if (values.all) {
        if (target) throw new UsageError('channel test --all tests every channel: give no NAME');
        let failed = 0;
        for (const row of await testAllChannels(channels)) {
          io.out(`${row.name}\t${testLine(row)}`);
          if (!row.ok) failed += 1;
        }
        return failed > 0 ? 1 : 0;
      }
      const result = await testChannel(channels, named(), values.model);
      if (result.ok) {
        io.out(testLine(result));
        return 0;
      }
      io.err(`gatehouse: channel ${target} failed its test after ${result.latency_ms} ms: ${result.message}`);
      return 1;
    }
    case 'models': {
      const fetched = await fetchChannelModels(channels, named(), { save: values.save === true });
      for (const model of fetched.models) io.out(model);
      if (values.save) io.err(`saved: channel ${fetched.channel.name} now serves ${fetched.channel.models}`);
      return 0;
    }
    default:
      throw new UsageError(CHANNEL_USAGE);
  }
}

/** The fields `--preset` fills (absent: none); a preset whose base URL holds a placeholder needs --base-url. */
function presetOf(values: Values): ChannelInput {
  if (values.preset === undefined) return {};
  const preset = presetById(values.preset);
  if (!preset) throw new UsageError(`--preset must be one of ${CHANNEL_PRESETS.map((item) => item.id).join(', ')}; got "${values.preset}"`);
  const placeholder = PRESET_PLACEHOLDER.exec(preset.baseUrl)?.[0];
  if (placeholder !== undefined && values['base-url'] === undefined)
    throw new UsageError(`--preset ${preset.id} needs --base-url: its URL ${preset.baseUrl} holds ${placeholder} to replace`);
  return presetInput(preset);
}

/** A test's line: `ok <ms> ms`, the model and the answer's first words; or the failure. */
function testLine(result: ChannelTestResult): string {
  if (!result.ok) return `failed after ${result.latency_ms} ms: ${result.message}`;
  const said = result.answer ? `: ${JSON.stringify(result.answer)}` : '';
  return `ok ${result.latency_ms} ms${result.model ? ` (${result.model})` : ''}${said}`;
}

/** One preset per line: id, label, kind, base URL, output-limit field, usual models. */
function describePreset(preset: (typeof CHANNEL_PRESETS)[number]): string {
  return [
    preset.id,
    preset.label,
    preset.kind,
    preset.baseUrl,
    outputLimitField(preset.kind, preset.compat),
    preset.models.length > 0
      ? `models ${preset.models.join(', ')}`
      : preset.local
        ? 'models: fetch them (a local server, no key)'
        : 'models: fetch them',
  ].join('\t');
}

/** The fields the flags give (absent flags stay absent, so update changes only those). */
function inputOf(values: Values, key: string | undefined): ChannelInput {
  const input: ChannelInput = {};
  if (values.name !== undefined) input.name = values.name;
  if (values.kind !== undefined) input.kind = values.kind as ChannelInput['kind'];
  if (values['base-url'] !== undefined) input.base_url = values['base-url'];
  if (values.models !== undefined) input.models = values.models;
  if (values.region !== undefined) input.region = values.region;
  if (values.project !== undefined) input.project = values.project;
  if (values.api !== undefined) input.api = values.api as ChannelInput['api'];
  if (values.compat !== undefined) input.compat = values.compat as ChannelInput['compat'];
  for (const [flag, field] of [
    ['priority', 'priority'],
    ['weight', 'weight'],
    ['timeout-ms', 'timeout_ms'],
    ['idle-timeout-ms', 'idle_timeout_ms'],
    ['deadline-ms', 'deadline_ms'],
  ] as const) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!/^[+-]?\d+$/.test(text.trim())) throw new UsageError(`--${flag} must be a whole number; got "${text}"`);
    input[field] = Number(text);
  }
  if (values.header !== undefined) input.headers = Object.fromEntries(values.header.map((line) => parseHeaderLine(line)));
  if (values.enabled !== undefined) {
    if (values.enabled !== 'true' && values.enabled !== 'false')
      throw new UsageError(`--enabled must be true or false; got "${values.enabled}"`);
    input.enabled = values.enabled === 'true';
  }
  if (key !== undefined) input.key = key;
  return input;
}

/** The key from standard input (one line) or from a named environment variable; never from the command line. */
async function keyOf(values: Values, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (values['key-stdin'] && values['key-env'] !== undefined) throw new UsageError('give the key with --key-stdin or --key-env, not both');
  if (values['key-env'] !== undefined) {
    const key = env[values['key-env']];
    if (key === undefined || key === '') throw new UsageError(`--key-env ${values['key-env']}: that environment variable is not set`);
    return key;
  }
  if (!values['key-stdin']) return undefined;
  if (process.stdin.isTTY) process.stderr.write('paste the key and press Enter: ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    process.stdin.pause();
    if (line.trim() === '') break;
    return line;
  }
  throw new UsageError('--key-stdin read no key: pipe it in, e.g. printenv OPENAI_API_KEY | gatehouse channel add … --key-stdin');
}

async function openStore(values: Values, env: NodeJS.ProcessEnv, dataDir: string, io: Output) {
  const { store, warning } = await selectSecretStore(resolveSecretMode(values.secrets, env, defaultDataDir(env)), dataDir);
  if (warning) io.err(`warning: ${warning}`);
  return store;
}

/** A service message names the API field (`base_url must …`): the CLI says the flag instead. */
function asFlags(error: GatewayError): string {
  const field = error.param;
  if (!field || field === 'key') return error.message;
  const flag = field === 'headers' ? '--header' : `--${field.replace(/_/g, '-')}`;
  return error.message.startsWith(field) ? `${flag}${error.message.slice(field.length)}` : error.message;
}

/** One line per channel: id, name, kind, base URL, models, numbers, state, key hint, health. */
function describe(item: ChannelSummary): string {
  const headers = Object.entries(item.headers).map(([name, value]) => `${name}: ${value}`);
  return [
    item.id,
    item.name,
    item.kind,
    item.base_url,
    `models ${item.models}`,
    `priority ${item.priority}`,
    `weight ${item.weight}`,
    `timeout ${item.timeout_ms} ms`,
    `idle timeout ${item.idle_timeout_ms} ms`,
    `deadline ${item.deadline_ms} ms`,
    ...(item.api !== null ? [`api ${item.api}`] : []),
    ...(item.compat_profile !== null ? [`compat ${item.compat ?? 'auto'} (${item.compat_profile})`] : []),
    item.enabled ? 'enabled' : 'disabled',
    item.key_hint === null ? 'no key' : `key ${item.key_hint}`,
    ...(item.region ? [`region ${item.region}`, `project ${item.project}`] : []),
    ...(item.reviewer ? ['portrait reviewer'] : []),
    ...(headers.length > 0 ? [`headers ${headers.join('; ')}`] : []),
    healthOf(item),
  ].join('\t');
}

function healthOf(item: ChannelSummary): string {
  const { health } = item;
  const last = health.last_error === null ? '' : `; last error: ${health.last_error}`;
  if (health.cooldown_until !== null)
    return `cooling down until ${rfc3339(health.cooldown_until)} (${health.consecutive_failures} failures in a row${last})`;
  if (health.consecutive_failures > 0) return `${health.consecutive_failures} failure(s) in a row${last}`;
  if (health.last_ok_at !== null) return `ok (last latency ${health.last_latency_ms} ms)`;
  return health.last_error === null ? 'not used yet' : `not used yet${last}`;
}

// `gatehouse connect claude-code|codex|gemini-cli [--undo] [--dry-run]`: writes a coding tool's own config files to use this gateway, or restores them.
import path from 'node:path';
import { CONNECT_TOOLS, type ConnectTool, type ToolConfigPlan } from '../../shared/tool-config.ts';
import { applyConnect, openConnectAdmin, planConnect, selectSecretStore, undoConnect } from '../gateway/index.ts';
import { toolHomeDir, toolVariables } from '../gateway/options/home-dir.ts';
import { listeningUrl, reachableOrigin } from '../gateway/options/listening-file.ts';
import { resolveDataDir, resolveSecretMode } from '../gateway/options/command-options.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import { parseServeOptions } from './options.ts';
import { defaultDataDir } from './paths.ts';
import type { Output } from './serve.ts';

const FLAGS = {
  undo: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  model: { type: 'string' },
  account: { type: 'string' },
  url: { type: 'string' },
  'data-dir': { type: 'string' },
  secrets: { type: 'string' },
  trust: { type: 'string' },
} as const;

export const CONNECT_USAGE = `  gatehouse connect ${CONNECT_TOOLS.join('|')} [--dry-run] [--undo] [--model M] [--account NAME] [--url BASE_URL]
                    [--data-dir DIR] [--secrets MODE] [--trust PROJECT_DIR (gemini-cli)]`;

/** The base URL of the gateway as the saved settings (or the defaults) have it; an any-address host is reached on loopback. */
function savedBaseUrl(env: NodeJS.ProcessEnv): string {
  const { host, port } = parseServeOptions([], env);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return reachableOrigin(url) ?? url;
}

/** The plan as a unified diff per file. */
function printPlan(plan: ToolConfigPlan, io: Output): void {
  for (const file of plan.files) {
    io.out(`--- ${file.existed ? file.path : '/dev/null'}`);
    io.out(`+++ ${file.path}`);
    if (!file.changed) io.out('  (unchanged)');
    for (const line of file.diff) io.out(`${line.op}${line.text}`);
  }
}

/** Runs `connect`; resolves with the exit code. */
export async function connect(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const { values, positionals } = parse(args, FLAGS);
  const [name, ...extra] = positionals;
  if (!name || !(CONNECT_TOOLS as readonly string[]).includes(name) || extra.length > 0) {
    throw new UsageError(`usage:\n${CONNECT_USAGE}`);
  }
  if (values.undo && values['dry-run']) throw new UsageError('--undo and --dry-run go alone');
  const tool = name as ConnectTool;
  const place = { home: toolHomeDir(env), variables: toolVariables(env) };
  if (values.undo) {
    const { restored } = undoConnect(place, tool);
    io.out(`restored ${restored.join(', ')} as they were before the first connect`);
    return 0;
  }
  const dataDir = resolveDataDir(values['data-dir'], env, defaultDataDir(env));
  const { store, warning } = await selectSecretStore(resolveSecretMode(values.secrets, env, defaultDataDir(env)), dataDir);
  if (warning) io.err(`warning: ${warning}`);
  // The gateway running on this data dir, where it really listens; else where `serve` would listen.
  const baseUrl = (values.url ?? listeningUrl(dataDir) ?? savedBaseUrl(env)).replace(/\/+$/, '');
  const admin = openConnectAdmin(dataDir, store, { ...place, baseUrl });
  try {
    // A relative folder is taken from where the command runs, as the user typed it.
    const choice = { model: values.model, account: values.account, trustFolder: values.trust && path.resolve(values.trust) };
    if (values['dry-run']) {
      printPlan(await planConnect(admin.context, tool, choice), io);
      return 0;
    }
    const plan = await applyConnect(admin.context, tool, choice);
    printPlan(plan, io);
    io.out(
      `${tool} now uses ${baseUrl} with model ${plan.model} and its API token "${plan.tokenName}"; undo: gatehouse connect ${tool} --undo`,
    );
    if (plan.importable) {
      io.err(
        `note: the config pointed to ${plan.importable.baseUrl} with a key (${plan.importable.keyHint}); add it as a channel to keep using it`,
      );
    }
    return 0;
  } finally {
    admin.close();
  }
}

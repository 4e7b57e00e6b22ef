// `gatehouse token create|list|revoke`: manages API tokens in a data dir, also while a server runs on it.
import {
  issueToken,
  MICROS,
  openTokenAdmin,
  parseRfc3339,
  rfc3339,
  selectSecretStore,
  type TokenAdmin,
  type TokenSummary,
} from '../gateway/index.ts';
import { formatMoney } from '../../shared/money.ts';
import { resolveDataDir, resolveSecretMode } from '../gateway/options/command-options.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import { defaultDataDir } from './paths.ts';
import type { Output } from './serve.ts';

const FLAGS = {
  'data-dir': { type: 'string' },
  account: { type: 'string' },
  name: { type: 'string' },
  'expires-at': { type: 'string' },
  quota: { type: 'string' },
  secrets: { type: 'string' },
} as const;

export async function token(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<void> {
  const { values, positionals } = parse(args, FLAGS);
  const [action, ...rest] = positionals;
  const dataDir = resolveDataDir(values['data-dir'], env, defaultDataDir(env));
  const admin = openTokenAdmin(dataDir);
  try {
    const service = admin.tokens;
    switch (action) {
      case 'create':
        return await create(service, values, dataDir, env, io);
      case 'list':
        for (const row of service.list(values.account)) io.out(describe(row));
        return;
      case 'revoke': {
        const id = rest[0];
        if (!id) throw new UsageError('usage: gatehouse token revoke TOKEN_ID');
        if (!service.revoke(id)) throw new UsageError(`no token with id ${id}`);
        io.out(`revoked ${id}`);
        return;
      }
      default:
        throw new UsageError('usage: gatehouse token create|list|revoke [options]');
    }
  } finally {
    admin.close();
  }
}

async function create(
  service: TokenAdmin['tokens'],
  values: Partial<Record<keyof typeof FLAGS, string>>,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  io: Output,
): Promise<void> {
  const account = values.account;
  if (!account || account.trim() === '') throw new UsageError('token create needs --account NAME');
  let expiresAt: number | undefined;
  if (values['expires-at'] !== undefined) {
    expiresAt = parseRfc3339(values['expires-at']);
    if (expiresAt === undefined) throw new UsageError('--expires-at must be an RFC 3339 time, e.g. 2027-01-31T00:00:00Z');
  }
  let quota: number | undefined;
  if (values.quota !== undefined) {
    quota = Number(values.quota);
    if (!/^\d+(\.\d+)?$/.test(values.quota) || quota * MICROS > Number.MAX_SAFE_INTEGER) {
      throw new UsageError('--quota must be a non-negative decimal amount, e.g. 5 or 2.50');
    }
  }
  const { store, warning } = await selectSecretStore(resolveSecretMode(values.secrets, env, defaultDataDir(env)), dataDir);
  if (warning) io.err(`warning: ${warning}`);
  // The token exists only once its secret is kept: a store that fails creates nothing, and the error exits 1.
  const { secret, token } = await issueToken(service, store, {
    account: account.trim(),
    ...(values.name !== undefined && { name: values.name }),
    ...(expiresAt !== undefined && { expiresAt }),
    ...(quota !== undefined && { quota }),
  });
  io.out(describe(token));
  io.out(secret);
}

function describe(row: TokenSummary): string {
  const state = row.revoked_at !== null ? 'revoked' : 'active';
  const expires = row.expires_at === null ? 'never expires' : `expires ${rfc3339(row.expires_at)}`;
  const quota = row.quota === null ? 'no quota' : `quota ${formatMoney(row.quota)} (used ${formatMoney(row.used)})`;
  return `${row.token_id}\t${row.account}\t${row.name}\t${row.hint}\t${state}\t${expires}\t${quota}`;
}

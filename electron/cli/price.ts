// `gatehouse price list|set|reset`: the owner's price table of a data dir (per model, USD per million tokens), also while a server runs on it.
import { GatewayError, openPriceAdmin, readPriceInput, type PriceAdmin } from '../gateway/index.ts';
import { resolveDataDir } from '../gateway/options/command-options.ts';
import { parse, UsageError } from '../gateway/options/serve-options.ts';
import { formatMoney } from '../../shared/money.ts';
import type { PriceRow } from '../../shared/prices.ts';
import { defaultDataDir } from './paths.ts';
import type { Output } from './serve.ts';

const FLAGS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  'input-per-mtok': { type: 'string' },
  'output-per-mtok': { type: 'string' },
  'per-call': { type: 'string' },
} as const;

type Values = ReturnType<typeof parse<typeof FLAGS>>['values'];

export const PRICE_USAGE = `usage:
  gatehouse price list [--json] [--data-dir DIR]
  gatehouse price set MODEL --input-per-mtok USD --output-per-mtok USD [--per-call USD] [--data-dir DIR]
  gatehouse price reset MODEL [--data-dir DIR]`;

/** Runs one `price` action; resolves with the exit code (usage errors are thrown as UsageError: exit code 2). */
export function price(args: string[], env: NodeJS.ProcessEnv, io: Output): number {
  const { values, positionals } = parse(args, FLAGS);
  const [action, model, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"\n\n${PRICE_USAGE}`);
  if (action !== 'list' && action !== 'set' && action !== 'reset') throw new UsageError(PRICE_USAGE);
  if (action === 'list' && model !== undefined) throw new UsageError(`price list takes no MODEL\n\n${PRICE_USAGE}`);
  if (action !== 'list' && model === undefined) throw new UsageError(`price ${action} needs the MODEL\n\n${PRICE_USAGE}`);
  const body = action === 'set' ? bodyOf(values) : undefined;
  const admin = openPriceAdmin(resolveDataDir(values['data-dir'], env, defaultDataDir(env)));
  try {
    run(admin, action, model, values, body, io);
    return 0;
  } catch (error) {
    if (error instanceof GatewayError && (error.kind === 'invalid_request' || error.kind === 'not_found')) {
      throw new UsageError(asFlag(error));
    }
    throw error;
  } finally {
    admin.close();
  }
}

function run(admin: PriceAdmin, action: string, model: string | undefined, values: Values, body: unknown, io: Output): void {
  const { prices } = admin;
  if (action === 'list') {
    const rows = prices.list();
    if (values.json) io.out(JSON.stringify(rows, null, 2));
    else for (const row of rows) io.out(describe(row));
  } else if (action === 'set') {
    io.out(describe(prices.set(model!, readPriceInput(body))));
  } else {
    io.out(describe(prices.reset(model!)));
  }
}

/** The body of `set` from its flags: each price a plain decimal number. */
function bodyOf(values: Values): Record<string, number> {
  const body: Record<string, number> = {};
  for (const [flag, field] of [
    ['input-per-mtok', 'input_per_mtok'],
    ['output-per-mtok', 'output_per_mtok'],
    ['per-call', 'per_call'],
  ] as const) {
    const text = values[flag];
    if (text === undefined) {
      if (flag === 'per-call') continue;
      throw new UsageError(`price set needs --${flag} (USD per million tokens)\n\n${PRICE_USAGE}`);
    }
    if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new UsageError(`--${flag} must be a number of USD such as 0.15; got "${text}"`);
    body[field] = Number(text.trim());
  }
  return body;
}

/** A service message names the API field (`input_per_mtok must …`): the CLI says the flag instead. */
function asFlag(error: GatewayError): string {
  const field = error.param;
  if (!field || !error.message.startsWith(field)) return error.message;
  const flag = field === 'model' ? 'MODEL' : `--${field.replace(/_/g, '-')}`;
  return `${flag}${error.message.slice(field.length)}`;
}

/** One line per model: name, input and output price per million tokens, the per-call price when set, and where it comes from. */
function describe(row: PriceRow): string {
  const origin =
    row.charged_as !== row.model
      ? `no price of its own: charged as ${row.charged_as}`
      : row.source === 'owner'
        ? row.documented
          ? `set by the owner (documented: ${formatMoney(row.documented.input_per_mtok)} / ${formatMoney(row.documented.output_per_mtok)})`
          : 'set by the owner'
        : 'documented default';
  return [
    row.model,
    `input ${formatMoney(row.input_per_mtok)} per 1M tokens`,
    `output ${formatMoney(row.output_per_mtok)} per 1M tokens`,
    ...(row.per_call > 0 ? [`per call ${formatMoney(row.per_call)}`] : []),
    origin,
  ].join('\t');
}

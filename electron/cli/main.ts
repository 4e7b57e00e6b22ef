// Entry point of the `gatehouse` CLI: dispatches `serve`, `token`, `channel`, `price`, `fixtures`, `cassette`, `console-secret` and `connect`, prints usage errors plainly.
import { plainMessageOf } from './start-errors.ts';
import { UsageError } from '../gateway/options/serve-options.ts';
import { serve, type Output } from './serve.ts';
import { token } from './token.ts';
import { channel, CHANNEL_USAGE } from './channel.ts';
import { price, PRICE_USAGE } from './price.ts';
import { consoleSecret, CONSOLE_SECRET_USAGE } from './console-secret.ts';
import { fixtures, FIXTURES_USAGE } from './fixtures.ts';
import { connect, CONNECT_USAGE } from './connect.ts';
import { cassette, CASSETTE_USAGE } from './cassette.ts';

const HELP = `gatehouse: a local AI gateway

usage:
  gatehouse serve [--host 127.0.0.1] [--port 8790] [--tls-port 8791|off] [--data-dir DIR] [--refresh-interval-ms 300000]
                  [--sim-review-ms 10000] [--sim-3d-ms 15000] [--secrets auto|keychain|file|none]
                  [--model-aliases gpt-4o=sim-chat,...] [--cors-origins ORIGIN,...] [--settings-file PATH|off]
                  [--journal on|off] [--allowed-hosts NAME,...] [--unrouted auto|simulate|reject]
                  [--fixtures PATH]... [--strict] [--ephemeral] [--ready-json]
                  [--record DIR [--record-simulated] [--record-replace] [--record-redact PATH,...]]
                  [--replay DIR [--replay-miss simulate|relay|error] [--replay-ignore PATH,...] [--replay-speed N]]
  gatehouse token create --account NAME [--name LABEL] [--expires-at RFC3339] [--quota AMOUNT] [--data-dir DIR]
                         [--secrets auto|keychain|file|none]
  gatehouse token list [--account NAME] [--data-dir DIR]
  gatehouse token revoke TOKEN_ID [--data-dir DIR]
${CHANNEL_USAGE.replace(/^usage:\n/, '')}
${PRICE_USAGE.replace(/^usage:\n/, '')}
${CONSOLE_SECRET_USAGE}
${FIXTURES_USAGE.replace(/^usage:\n/, '')}
${CONNECT_USAGE}
${CASSETTE_USAGE.replace(/^usage:\n/, '')}

See docs/cli-and-settings.md for the environment variables that mirror each flag.`;

const io: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Each command's own usage, printed by `gatehouse COMMAND … --help` (the others print the whole help). */
const COMMAND_USAGE: Record<string, string> = {
  channel: CHANNEL_USAGE,
  price: PRICE_USAGE,
  'console-secret': CONSOLE_SECRET_USAGE,
  fixtures: FIXTURES_USAGE,
  connect: CONNECT_USAGE,
  cassette: CASSETTE_USAGE,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  // `--help` or `-h` anywhere after a command (before a `--`) asks for help, never for an "unknown option" error.
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (command !== undefined && (options.includes('--help') || options.includes('-h'))) {
    io.out(COMMAND_USAGE[command] ?? HELP);
    return 0;
  }
  switch (command) {
    case 'serve':
      await serve(args, process.env, io);
      return 0;
    case 'token':
      await token(args, process.env, io);
      return 0;
    case 'channel':
      return channel(args, process.env, io);
    case 'price':
      return price(args, process.env, io);
    case 'fixtures':
      return fixtures(args, io);
    case 'connect':
      return connect(args, process.env, io);
    case 'cassette':
      return cassette(args, process.env, io);
    case 'console-secret':
      await consoleSecret(args, process.env, io);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(HELP);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).then(
  // Written output reaches a pipe before the exit (a long `cassette list` piped into another program is not cut).
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    if (error instanceof UsageError) {
      io.err(`gatehouse: ${error.message}`);
      process.exit(2);
    }
    const plain = plainMessageOf(error);
    if (plain) {
      io.err(`gatehouse: ${plain}`);
      process.exit(1);
    }
    io.err(`gatehouse: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);

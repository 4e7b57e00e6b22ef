// Failures the user can fix (an unusable data dir, a broken secrets file, a secret store that failed, a broken fixture file, a taken port): one plain line, no stack trace.
import { DataDirError, FixturesError, GatewayError, LockTimeoutError, SecretsFileError } from '../gateway/index.ts';

/** The message to print for an error the user can act on, or undefined for a bug (printed with its stack). */
export function plainMessageOf(error: unknown): string | undefined {
  if (
    error instanceof DataDirError ||
    error instanceof SecretsFileError ||
    error instanceof LockTimeoutError ||
    error instanceof FixturesError
  )
    return error.message;
  // The gateway's own refusals are written for the user (e.g. a token not created because the secret store failed).
  if (error instanceof GatewayError) return error.message;
  const { code, address, port } = error as { code?: unknown; address?: unknown; port?: unknown };
  if (code === 'EADDRINUSE')
    return `${address}:${port} is already in use (another Gatehouse?): stop that program or choose another --port / --tls-port`;
  if (code === 'EADDRNOTAVAIL') return `${address} is not an address of this machine: choose another --host`;
  if (code === 'EACCES' && port !== undefined) return `not allowed to listen on ${address}:${port}: choose a --port above 1023`;
  return undefined;
}

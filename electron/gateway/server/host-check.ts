// Refuses every request and WebSocket upgrade whose Host header names something other than this gateway (DNS rebinding), with 403 in the caller's protocol.
import { GatewayError } from '../errors.ts';
import { hostVerdict, type HostPolicy } from './host-names.ts';
import type { SyncStep } from './sync-hook.ts';

/** Longest part of a refused Host header quoted back in the error message. */
const QUOTED_HOST_CHARS = 100;

/** The check, an `onRequest` step; `policy()` is read on every request. Run it before the journal and CORS steps. */
export function hostCheckStep(policy: () => HostPolicy): SyncStep {
  // The last Host header the policy alone allowed, and that policy: the next request of a client sends the same header,
  // which is then not parsed again (a header allowed only as one of this machine's addresses is checked every time).
  let allowed: { header: string; policy: HostPolicy } | undefined;
  return (request) => {
    const host = request.headers.host;
    const current = policy();
    if (allowed !== undefined && allowed.header === host && allowed.policy === current) return;
    const verdict = hostVerdict(host, current);
    if (verdict === 'named' && host !== undefined) allowed = { header: host, policy: current };
    if (verdict !== 'refused') return;
    throw new GatewayError(
      'forbidden',
      `Host "${String(host).slice(0, QUOTED_HOST_CHARS)}" is not a name of this gateway. It answers to localhost, loopback addresses and its listen host; ` +
        'add other names with --allowed-hosts or GATEHOUSE_ALLOWED_HOSTS',
    );
  };
}

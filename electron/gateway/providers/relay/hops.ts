// Relay hops: a relayed call says how many Gatehouse relays it passed, so a channel pointing back at the gateway (itself, or one relaying back) ends in a refusal instead of calls relaying each other until the gateway stops answering.
import { ConfigurationError } from '../../errors.ts';
import type { CallContext } from '../types.ts';
import { single } from './headers.ts';

/** The header each relayed call carries upstream: how many Gatehouse relays it passed, this one included. */
export const RELAY_HOPS_HEADER = 'x-gatehouse-relay-hops';

/** Most Gatehouse relays a call may pass; a gateway that would relay it once more refuses it with 508 Loop Detected. */
export const MAX_RELAY_HOPS = 5;

/** The relays `call` already passed (0 from a client; a value that is not a small whole number counts as 0). */
function hopsOf(call: CallContext): number {
  const value = Number(single(call.headers[RELAY_HOPS_HEADER]));
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** The value of the hop header a call relayed on from `call` carries. */
export function nextHopCount(call: CallContext): string {
  return String(hopsOf(call) + 1);
}

/** Throws the 508 refusal when `call` already passed MAX_RELAY_HOPS relays: a channel's base URL leads back to a gateway on the way. */
export function refuseRelayLoop(call: CallContext, model: string): void {
  if (hopsOf(call) < MAX_RELAY_HOPS) return;
  throw new ConfigurationError(
    'upstream_failed',
    `Gateway configuration error: a relay loop: this call for model '${model}' already passed ${MAX_RELAY_HOPS} Gatehouse relays, ` +
      `so a channel's base URL leads back to a gateway on the way (often this one: its own /v1 address). Fix the channel's base URL in the Channels page.`,
    null,
    508,
  );
}

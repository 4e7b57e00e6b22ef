// A placeholder outbound codec for an upstream wire whose translator is not built yet: every call is refused clearly.
import { GatewayError } from '../../errors.ts';
import type { OutboundChatCodec } from './codec.ts';

/** An outbound codec that refuses every translation into `wire` with a 501 naming it. */
export function notBuiltCodec(wire: string): OutboundChatCodec {
  const refuse = (): never => {
    throw new GatewayError('not_implemented', `Translation into the ${wire} protocol is not built yet.`);
  };
  return { request: refuse, result: refuse, deltas: refuse };
}

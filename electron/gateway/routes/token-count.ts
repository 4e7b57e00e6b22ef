// The answer of a token count: the number, and a header saying so when it is the gateway's estimate rather than the model's count.
import type { FastifyReply } from 'fastify';
import type { EstimatedCount } from '../providers/types.ts';

/** Set to `true` on a token count the gateway estimated (a translated model whose upstream protocol has no counting endpoint). */
export const ESTIMATE_HEADER = 'x-gatehouse-estimate';

/** The count to answer; an estimate is marked with ESTIMATE_HEADER on `reply`. */
export function countedTokens(counted: number | EstimatedCount, reply: FastifyReply): number {
  if (typeof counted === 'number') return counted;
  reply.header(ESTIMATE_HEADER, 'true');
  return counted.estimate;
}

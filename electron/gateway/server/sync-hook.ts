// Hooks that never wait, in Fastify's callback form: an async hook costs every request a promise and a microtask turn, and most of the gateway's hooks have nothing to wait for.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * A hook from a synchronous function: it throws to refuse the request (as an async hook's rejection does), and
 * returns `reply` when it answered or hijacked the reply itself (as an async hook returns it), so the request goes no
 * further; anything else lets the request go on.
 */
export function syncHook<Request extends FastifyRequest = FastifyRequest>(
  hook: (request: Request, reply: FastifyReply) => unknown,
): (request: Request, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return (request, reply, done) => {
    if (hook(request, reply) !== reply) done();
  };
}

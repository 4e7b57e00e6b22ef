// Hooks that never wait, in Fastify's callback form: an async hook costs every request a promise and a microtask turn, and most of the gateway's hooks have nothing to wait for.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** A step of a synchronous hook: throws to refuse the request, returns `reply` when it answered or hijacked it, else lets the request go on. */
export type SyncStep<Request extends FastifyRequest = FastifyRequest> = (request: Request, reply: FastifyReply) => unknown;

/**
 * A hook from a synchronous function: it throws to refuse the request (as an async hook's rejection does), and
 * returns `reply` when it answered or hijacked the reply itself (as an async hook returns it), so the request goes no
 * further; anything else lets the request go on.
 */
export function syncHook<Request extends FastifyRequest = FastifyRequest>(
  hook: SyncStep<Request>,
): (request: Request, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return (request, reply, done) => {
    if (hook(request, reply) !== reply) done();
  };
}

/**
 * One hook that runs `steps` in order, as that many hooks of their own would (a step that throws or returns `reply`
 * ends the request there): one turn of Fastify's hook runner per request instead of one per step.
 */
export function syncSteps(
  ...steps: readonly SyncStep[]
): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return syncHook((request, reply) => {
    for (const step of steps) if (step(request, reply) === reply) return reply;
    return undefined;
  });
}

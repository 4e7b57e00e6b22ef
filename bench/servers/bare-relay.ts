// A bare Fastify + undici pass-through to the baseline upstream (no auth, billing, journal or failover): the floor any relay built on this stack starts from.
import Fastify from 'fastify';
import { request } from 'undici';

const upstream = process.argv[2];
if (!upstream) throw new Error('usage: bare-relay.ts <upstream base URL>');

const app = Fastify({ logger: false, keepAliveTimeout: 60_000 });
// The body as received goes on untouched, as Gatehouse's same-protocol relay forwards it.
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/v1/chat/completions', async (incoming, reply) => {
  const answer = await request(`${upstream}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: incoming.body as Buffer,
  });
  const type = answer.headers['content-type'];
  reply.code(answer.statusCode);
  if (typeof type === 'string') reply.header('content-type', type);
  return reply.send(answer.body);
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url });
process.on('disconnect', () => process.exit(0));

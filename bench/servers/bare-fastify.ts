// A bare Fastify app with one route answering the baseline's fixed chat completion: what Fastify alone costs, for the simulate-mode comparison.
import Fastify from 'fastify';
import { CHAT_COMPLETION } from '../lib/fixtures.ts';

const app = Fastify({ logger: false, keepAliveTimeout: 60_000 });
app.post('/v1/chat/completions', async () => CHAT_COMPLETION);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url });
process.on('disconnect', () => process.exit(0));

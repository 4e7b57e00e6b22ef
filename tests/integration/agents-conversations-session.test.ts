// Integration test: the OpenAI Agents SDK's OpenAIConversationsSession keeps an agent's history in the gateway's Conversations API (simulate mode). The SDK is not a dependency: it is loaded from AGENTS_SDK_DIR (default /tmp/agents, where `npm install --prefix /tmp/agents @openai/agents` puts it), and the test is skipped with the reason printed when it is absent.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

const SDK_DIR = process.env['AGENTS_SDK_DIR'] ?? '/tmp/agents';
const entry = (name: string) => join(SDK_DIR, 'node_modules', ...name.split('/'));
const missing = ['@openai/agents', 'openai'].find((name) => !existsSync(join(entry(name), 'package.json')));
const skip = missing ? `${missing} is not installed in ${SDK_DIR} (npm install --prefix ${SDK_DIR} @openai/agents)` : false;
if (skip) console.log(`# skipped: ${skip}`);

/** A package from the SDK's folder, by its package.json's main entry (its own `openai` copy, not the repo's). */
async function load(name: string): Promise<any> {
  const { createRequire } = await import('node:module');
  const resolved = createRequire(join(SDK_DIR, 'package.json')).resolve(name);
  return import(pathToFileURL(resolved).href);
}

describe('the OpenAI Agents SDK session on the Conversations API', { skip }, () => {
  const suite = useOpenAIGateway();
  /** The SDK set to the gateway (the SDK's own openai client, tracing off) and a brief agent on gpt-4.1-mini. */
  const birder = async () => {
    const agents = await load('@openai/agents');
    const { default: OpenAI } = await load('openai');
    const client = new OpenAI({ baseURL: `${suite.gw.url}/v1`, apiKey: suite.gw.token, maxRetries: 0 });
    agents.setDefaultOpenAIClient(client);
    agents.setTracingDisabled(true);
    const agent = new agents.Agent({ name: 'Birder', instructions: 'Answer briefly.', model: 'gpt-4.1-mini' });
    return { agents, client, agent };
  };

  test('an agent run with OpenAIConversationsSession stores its turns in a conversation and the next run reads them', async () => {
    const { agents, client, agent } = await birder();
    const session = new agents.OpenAIConversationsSession({ client });

    const first = await agents.run(agent, 'The word is heron. Remember it.', { session });
    assert.ok(typeof first.finalOutput === 'string' && first.finalOutput.length > 0);
    const conversationId = await session.getSessionId();
    assert.match(conversationId, /^conv_/);
    const kept = await session.getItems();
    assert.deepEqual(
      kept.map((item: any) => item.role),
      ['user', 'assistant'],
    );

    const second = await agents.run(agent, 'What was the word?', { session });
    assert.ok(typeof second.finalOutput === 'string' && second.finalOutput.length > 0);
    const listed = (await suite.client.conversations.items.list(conversationId, { order: 'asc' })).data;
    assert.deepEqual(
      listed.map((item) => (item.type === 'message' ? item.role : item.type)),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const popped = await session.popItem();
    assert.equal(popped.role, 'assistant');
    assert.equal((await session.getItems()).length, 3);
    await session.clearSession();
    const gone = await suite.client.conversations.retrieve(conversationId).then(
      () => 200,
      (error: { status: number }) => error.status,
    );
    assert.equal(gone, 404);
  });

  test('a run with conversationId (server-managed history) continues the conversation through `conversation` on Responses', async () => {
    const { agents, client, agent } = await birder();
    const conversation = await client.conversations.create({});

    await agents.run(agent, 'The word is heron.', { conversationId: conversation.id });
    const streamed = await agents.run(agent, 'What was the word?', { conversationId: conversation.id, stream: true });
    for await (const _event of streamed.toStream()) void _event;
    await streamed.completed;
    const listed = (await suite.client.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.deepEqual(
      listed.map((item) => (item.type === 'message' ? item.role : item.type)),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });
});

// A relayed Responses call whose conversation is deleted while the channel answers: the caller got the answer, so the call is charged, though its turn can no longer be added to the conversation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { eventually } from '../helpers/eventually.ts';
import { gatewayBefore, hostileUpstream, stoppedAfterAll } from '../helpers/hostile-upstream.ts';
import { quotaToken, spentMicros } from '../helpers/quota.ts';

const started = stoppedAfterAll();

test('a conversation deleted while its relayed turn is under way: the answer reaches the caller and is charged; the turn is not added anywhere', async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const up = await hostileUpstream(async (received, response) => {
    await gate;
    const { model } = JSON.parse(received.body.toString('utf8')) as { model: string };
    const message = {
      type: 'message',
      id: 'msg_up1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'relayed', annotations: [] }],
    };
    const usage = { input_tokens: 5, output_tokens: 2, total_tokens: 7 };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ id: 'resp_up1', object: 'response', created_at: 1, status: 'completed', model, output: [message], usage }),
    );
  });
  const gw = await gatewayBefore(up, 'openai', 'sk-up-key-0123456789abcdef', { api: 'responses' });
  started.push({ up, gw });
  const { secret, tokenId } = await quotaToken(gw, 'deleted-conversation', 10);
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: secret, maxRetries: 0 });

  const conversation = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'remember heron' }] });
  const answer = client.responses.create({ model: 'gpt-4.1-mini', input: 'what was it?', conversation: conversation.id });
  await eventually(() => up.requests.length === 1, 'the call reached the channel');
  await client.conversations.delete(conversation.id);
  open();
  const response = await answer;
  assert.equal(response.output_text, 'relayed', 'the caller got the answer');
  // 5 input and 2 output tokens at the default price (0.5 and 1.5 USD a million).
  await eventually(async () => (await spentMicros(gw, tokenId)) === 6, 'the delivered answer was charged');
  const gone = await client.conversations.retrieve(conversation.id).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(gone instanceof OpenAI.APIError && gone.status === 404, 'the deleted conversation stays deleted');
});

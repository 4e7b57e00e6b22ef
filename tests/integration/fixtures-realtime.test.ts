// Integration test of fixtures in a realtime session: each response of the session is matched on the conversation so far (text, then a tool call by turn), and strict mode refuses an unmatched one with an error event.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { openRaw, type RawClient } from '../helpers/realtime.ts';

const userText = (text: string) => ({
  type: 'conversation.item.create',
  item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
});

describe('fixtures answer realtime responses', { timeout: 60_000 }, () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
    const added = await request(`${gw.url}/admin/api/fixtures`, 'POST', {
      token: gw.gateway.adminToken,
      body: [
        { match: { endpoint: 'realtime', user: 'lighthouse', turn: 0 }, response: { text: 'A scripted lighthouse answer.' } },
        { match: { endpoint: 'realtime', turn: 1 }, response: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Brest' } }] } },
      ],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });
  after(() => gw.stop());

  const open = async (headers: Record<string, string> = {}): Promise<RawClient> => {
    const client = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, {
      headers: { authorization: `Bearer ${gw.token}`, ...headers },
    });
    await client.next('session.created');
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['text'],
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }],
      },
    });
    await client.next('session.updated');
    return client;
  };

  test('the first response answers the text, the second (turn 1) calls the tool', async () => {
    const client = await open();
    client.send(userText('Tell me about a lighthouse.'));
    client.send({ type: 'response.create' });
    const text = await client.next('response.output_text.done');
    assert.equal(text.text, 'A scripted lighthouse answer.');
    await client.next('response.done');
    client.send(userText('And the weather there?'));
    client.send({ type: 'response.create' });
    const call = await client.next('response.function_call_arguments.done');
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Brest' });
    client.socket.close();
  });

  test('under x-gatehouse-strict an unmatched response is an error event naming the closest fixture', async () => {
    const client = await open({ 'x-gatehouse-strict': '1' });
    client.send(userText('Something else entirely.'));
    client.send({ type: 'response.create' });
    const error = await client.next('error');
    assert.match(
      error.error.message,
      /No fixture matched this realtime call \(strict mode\)\. The closest is "runtime#0": user message contains "lighthouse"/,
    );
    client.socket.close();
  });
});

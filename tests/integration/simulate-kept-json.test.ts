// Integration tests of a kept simulated answer written as JSON text: the bytes JSON.stringify writes, a fresh id and created time per call, the model as asked, tool calls in the shape each call asked for.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { manualClock } from '../helpers/clock.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

describe('simulated chat JSON from a kept answer', () => {
  const clock = manualClock();
  const suite = useOpenAIGateway({ clock });

  const post = async (body: unknown) => {
    const response = await fetch(`${suite.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.gw.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  test('the same request asked again: the same answer, as JSON.stringify writes it, with its own id, created time and model', async () => {
    const model = 'sim-chat "quoted" \\ \u00e9';
    const body = { model, messages: [{ role: 'user', content: 'Say something short.' }] };
    const answers = [];
    for (let round = 0; round < 3; round++) {
      const answer = await post(body);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.type, 'application/json; charset=utf-8');
      const parsed = JSON.parse(answer.text);
      assert.equal(answer.text, JSON.stringify(parsed), 'compact JSON, as Fastify would serialize the object');
      assert.deepEqual(Object.keys(parsed), ['id', 'object', 'created', 'model', 'service_tier', 'system_fingerprint', 'choices', 'usage']);
      assert.equal(parsed.model, model);
      assert.equal(parsed.created, Math.floor(clock.now() / 1000), 'created from the gateway clock');
      answers.push(parsed);
      clock.advance(61_000);
    }
    assert.equal(new Set(answers.map((answer) => answer.id)).size, 3, 'an id of its own per call');
    assert.equal(new Set(answers.map((answer) => answer.created)).size, 3, 'a created time of its own per call');
    const rest = ({ id: _id, created: _created, ...others }: Record<string, unknown>) => others;
    assert.deepEqual(rest(answers[2]), rest(answers[0]));
    assert.ok(answers[0].choices[0].message.content.length > 0);
  });

  test('one kept answer asked with tools and with legacy functions: tool_calls, then function_call', async () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const messages = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
    for (let round = 0; round < 2; round++) {
      const withTools = await suite.client.chat.completions.create({
        model: 'sim-chat',
        messages,
        tools: [{ type: 'function', function: { name: 'get_weather', parameters } }],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      });
      assert.equal(withTools.choices[0]!.finish_reason, 'tool_calls');
      assert.equal(withTools.choices[0]!.message.tool_calls?.[0]?.type, 'function');
      assert.equal(withTools.choices[0]!.message.function_call, undefined);
      const legacy = await suite.client.chat.completions.create({
        model: 'sim-chat',
        messages,
        functions: [{ name: 'get_weather', parameters }],
        function_call: { name: 'get_weather' },
      });
      assert.equal(legacy.choices[0]!.finish_reason, 'function_call');
      assert.equal(legacy.choices[0]!.message.function_call?.name, 'get_weather');
      assert.equal(legacy.choices[0]!.message.tool_calls, undefined);
      assert.equal(legacy.choices[0]!.message.function_call?.arguments, withTools.choices[0]!.message.tool_calls?.[0]?.function.arguments);
    }
  });
});

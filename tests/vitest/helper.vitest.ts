// The `gatehouse/testing` helper under Vitest, as docs/testing-clients.md shows it: one gateway per file, a test id per test, the journal checked after each call.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startGatehouse, type Gatehouse, type TestScope } from 'gatehouse/testing';

let gatehouse: Gatehouse;
let scope: TestScope;
let openai: OpenAI;

beforeAll(async () => {
  gatehouse = await startGatehouse();
});
afterAll(() => gatehouse.stop());

beforeEach(({ task }) => {
  // Each test gets its own test id (its name: a header value, so plain ASCII): its fixtures, counters and journal entries are its own.
  scope = gatehouse.forTest(task.name);
  openai = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, defaultHeaders: scope.headers, maxRetries: 0 });
});

test('a scripted tool call, then the answer to its result', async () => {
  await scope.fixtures.add([
    { match: { user: 'weather', turn: 0 }, response: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
    { match: { tool_result: 'sunny' }, response: { text: 'It is sunny in Paris.' } },
  ]);
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];

  const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
  expect(call.function.name).toBe('get_weather');
  expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });

  messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 24 °C' });
  const second = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  expect(second.choices[0]!.message.content).toBe('It is sunny in Paris.');

  const sent = await scope.journal.last();
  expect(sent?.requestBody).toMatchObject({
    messages: [{ role: 'user' }, { role: 'assistant' }, { role: 'tool', content: 'sunny, 24 °C' }],
  });
});

test('another test never sees the first test fixtures', async () => {
  const answer = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }] });
  expect(answer.choices[0]!.message.tool_calls).toBeUndefined();
  expect((await scope.journal.last())?.fixture ?? null).toBeNull();
});

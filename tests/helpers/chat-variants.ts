// Chat request bodies whose simulated streams differ in how their bytes are made (a forced tool call, legacy functions), shared by the kept-stream and journal-template tests.

/** One user message of `content`. */
export const user = (content: string) => [{ role: 'user', content }];

/** A function tool with one required argument. */
export const WEATHER = {
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A chat body whose answer is a forced tool call, with the usage chunk asked for (add `stream: true` to stream it). */
export const TOOL_CALLS_BODY = {
  model: 'gpt-4o-mini',
  messages: user('What is the weather in Paris?'),
  tools: [{ type: 'function', function: WEATHER }],
  tool_choice: 'required',
  stream_options: { include_usage: true },
};

/** A chat body whose answer is a legacy `function_call` (add `stream: true` to stream it). */
export const LEGACY_FUNCTIONS_BODY = {
  model: 'gpt-4o-mini',
  messages: user('What is the weather in Paris?'),
  functions: [WEATHER],
  function_call: { name: 'get_weather' },
};

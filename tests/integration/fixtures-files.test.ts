// Integration tests of fixture files: aimock's published example files load as they are under `gatehouse serve --fixtures` and answer, every problem is named by file, index and field (serve exits non-zero, `gatehouse fixtures validate` too), and hostile files are refused.
import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { firstTokenOf, privateServeArgs, runCli, serveCli, type ServeProcess } from '../helpers/cli.ts';
import { startGateway, tempDirs } from '../helpers/gateway.ts';

const AIMOCK_DIR = fileURLToPath(new URL('../fixtures/aimock', import.meta.url));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("aimock's example fixture files, loaded as they are", () => {
  const dirs = tempDirs();
  let server: ServeProcess;
  let openai: OpenAI;
  let anthropic: Anthropic;
  before(async () => {
    server = await serveCli([...privateServeArgs(dirs.fresh()), '--fixtures', AIMOCK_DIR]);
    const token = firstTokenOf(server);
    assert.match(server.stderr(), /fixtures: \d+ loaded from /);
    openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: server.url, apiKey: token, maxRetries: 0 });
  });
  after(async () => {
    await server.stop();
    dirs.removeAll();
  });

  const chat = (content: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }], ...extra });

  test('example-greeting.json answers by user message substring, in OpenAI and Anthropic', async () => {
    assert.equal((await chat('hello')).choices[0]!.message.content, 'Hello! How can I help you today?');
    const message = await anthropic.messages.create({
      model: 'claude-x',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'well, goodbye then' }],
    });
    assert.deepEqual(
      message.content,
      [{ type: 'text', text: 'Goodbye! Have a great day!', citations: null }].map(({ type, text }) => ({ type, text })),
    );
  });

  test('example-tool-call.json answers a call offering get_weather; example-multi-turn.json matches the tool call id', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
    const call = (await chat('anything', { tools })).choices[0]!.message.tool_calls![0]! as {
      function: { name: string; arguments: string };
    };
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.function.arguments), { location: 'San Francisco', unit: 'fahrenheit' });
    const done = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'make it blue' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_background', type: 'function', function: { name: 'change_background', arguments: '{"background":"blue"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_background', content: 'ok' },
      ],
    });
    assert.equal(done.choices[0]!.message.content, "Done! I've changed the background.");
  });

  test('llm/error-injection.json: a 429 rate_limit_error, its ".*" a literal substring as in aimock', async () => {
    const error = await failure(chat('match .* literally'));
    assert.ok(error instanceof OpenAI.RateLimitError);
    assert.equal(error.type, 'rate_limit_error');
    assert.equal(error.code, 'rate_limit_exceeded');
    assert.equal(error.message, '429 Rate limit exceeded. Please retry after 30 seconds.');
    // Without ".*" in the message nothing matches: simulated.
    assert.equal((await chat('no wildcard here')).choices.length, 1);
  });

  test('llm/sequential-responses.json answers in sequenceIndex order, then no longer', async () => {
    const jokes = [];
    for (let i = 0; i < 3; i++) jokes.push((await chat('tell me a joke')).choices[0]!.message.content);
    assert.deepEqual(jokes, [
      "Why did the programmer quit his job? Because he didn't get arrays!",
      "Why do Java developers wear glasses? Because they can't C#!",
      "A SQL query walks into a bar, sees two tables, and asks: 'Can I join you?'",
    ]);
    assert.ok(!jokes.includes((await chat('tell me a joke')).choices[0]!.message.content ?? ''));
  });

  test('llm/embeddings.json answers by input text', async () => {
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'hello world', encoding_format: 'float' });
    const vector = result.data[0]!.embedding;
    assert.equal(vector.length, 3);
    [0.0023064255, -0.009327292, 0.015797347].forEach((value, index) => assert.ok(Math.abs(vector[index]! - value) < 1e-6));
  });

  test('llm/blocks-tool-first.json streams the tool call before the text', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-x',
      max_tokens: 100,
      messages: [{ role: 'user', content: "what's the weather in NYC?" }],
    });
    const final = await stream.finalMessage();
    assert.deepEqual(
      final.content.map((block) => block.type),
      ['tool_use', 'text'],
    );
    assert.deepEqual((final.content[0] as { input: unknown }).input, { city: 'NYC' });
    assert.equal((final.content[1] as { text: string }).text, 'Let me check the weather in NYC for you.');
  });

  test('llm/streaming-physics.json waits its time to first token', async () => {
    const started = performance.now();
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'explain gravity' }],
    });
    let text = '';
    let firstTextAt: number | undefined;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content ?? '';
      if (piece !== '') firstTextAt ??= performance.now();
      text += piece;
    }
    assert.match(text, /^Gravity is a fundamental force/);
    // A lower bound only (a busy machine makes it longer, never shorter): the profile's ttft is 200 ms.
    assert.ok(firstTextAt! - started >= 150, `first text after ${firstTextAt! - started} ms`);
  });
});

describe('fixture problems are named, and hostile files are refused', () => {
  const dirs = tempDirs();
  let dir: string;
  before(() => {
    dir = dirs.fresh();
    writeFileSync(
      path.join(dir, 'bad.json'),
      JSON.stringify([
        { match: { user: { regex: '(a+)+$' } }, response: { text: 'x' } },
        { match: { turn: 'first' }, response: { text: 'y' } },
        { match: {}, response: { tool_calls: [{ name: 'f', arguments: 'not json' }] } },
      ]),
    );
    writeFileSync(path.join(dir, 'broken.json'), '{"fixtures": [');
    writeFileSync(
      path.join(dir, 'aimock-bad.json'),
      JSON.stringify({
        fixtures: [
          { match: { userMessage: { regex: 'x' } }, response: { content: 'x' } },
          { match: {}, response: { toolCalls: [{ name: 'f', arguments: 'nope' }] }, chunkSize: 0 },
        ],
      }),
    );
  });
  after(() => dirs.removeAll());

  const EXPECTED = [
    /bad\.json#0 match\.user: regular expression \/\(a\+\)\+\$\/ nests quantifiers/,
    /bad\.json#1 match\.turn: must be a whole number from 0 to 100000; got "first"/,
    /bad\.json#2 response\.tool_calls\[0\]\.arguments: must be an object, or a JSON text of one/,
    /broken\.json: is not valid JSON/,
  ];

  test('gatehouse fixtures validate names file, index and field, and exits 1', () => {
    const result = runCli(['fixtures', 'validate', dir]);
    assert.equal(result.code, 1);
    for (const expected of EXPECTED) assert.match(result.stderr, expected);
    // An aimock file's problems are named by aimock's field names.
    assert.match(result.stderr, /aimock-bad\.json#0 match\.userMessage: must be a string \(aimock matches it as a literal substring\)/);
    assert.match(result.stderr, /aimock-bad\.json#1 response\.toolCalls\[0\]\.arguments: must be an object/);
    assert.match(result.stderr, /aimock-bad\.json#1 chunkSize: must be a whole number from 1/);
    const good = path.join(dirs.fresh(), 'good.json');
    writeFileSync(good, JSON.stringify({ match: { user: 'hi' }, response: { text: 'hello' } }));
    const ok = runCli(['fixtures', 'validate', good]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /1 fixture\(s\) valid/);
  });

  test('gatehouse serve refuses to start with them (--fixtures, and GATEHOUSE_FIXTURES)', () => {
    const flagged = runCli(['serve', ...privateServeArgs(dirs.fresh()), '--fixtures', path.join(dir, 'bad.json')]);
    assert.equal(flagged.code, 1);
    for (const expected of EXPECTED.slice(0, 3)) assert.match(flagged.stderr, expected);
    const fromEnv = runCli(['serve', ...privateServeArgs(dirs.fresh())], { GATEHOUSE_FIXTURES: path.join(dir, 'broken.json') });
    assert.equal(fromEnv.code, 1);
    assert.match(fromEnv.stderr, EXPECTED[3]!);
  });

  test('a 100 MB file, a sequence of a million responses and 10,001 fixtures are refused with a clear message', () => {
    const hostile = dirs.fresh();
    const huge = path.join(hostile, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 100 * 1024 * 1024);
    const bigSequence = path.join(hostile, 'sequence.json');
    writeFileSync(bigSequence, `{"fixtures":[{"match":{},"sequence":[${Array(1_000_000).fill('{"text":"a"}').join(',')}]}]}`);
    const many = path.join(hostile, 'many.json');
    writeFileSync(many, JSON.stringify(Array.from({ length: 10_001 }, () => ({ response: { text: 'a' } }))));
    const result = runCli(['fixtures', 'validate', huge, bigSequence, many]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /huge\.json: is 104857600 bytes; a fixture file may be at most 16777216 bytes \(MAX_FIXTURE_FILE_BYTES\)/);
    assert.match(result.stderr, /sequence\.json#0 sequence: has 1000000 responses; at most 10000 are allowed \(MAX_SEQUENCE_LENGTH\)/);
    assert.match(result.stderr, /many\.json: holds 10001 fixtures; at most 10000 are allowed \(MAX_FIXTURES\)/);
  });
});

/** The `yaml` package is a new dependency: until it is installed in node_modules, the YAML test says so and is skipped. */
const yamlInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve('yaml');
    return true;
  } catch {
    return false;
  }
})();

describe('YAML fixture files', { skip: yamlInstalled ? false : 'the yaml package is not installed yet (npm install)' }, () => {
  const dirs = tempDirs();
  after(() => dirs.removeAll());

  test('a YAML file loads like JSON (comments, block text) and its problems are named the same way', async () => {
    const dir = dirs.fresh();
    const file = path.join(dir, 'answers.yaml');
    writeFileSync(
      file,
      [
        '# scripted answers',
        '- name: yaml-greeting',
        '  match: { user: hello yaml }',
        '  response:',
        '    text: |-',
        '      Hi from YAML',
        '',
      ].join('\n'),
    );
    const gw = await startGateway({ fixtures: [dir] });
    try {
      const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
      const answer = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello yaml' }] });
      assert.equal(answer.choices[0]!.message.content, 'Hi from YAML');
    } finally {
      await gw.stop();
    }
    writeFileSync(path.join(dir, 'bad.yml'), '- match: { turn: first }\n  response: { text: x }\n');
    const result = runCli(['fixtures', 'validate', dir]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /bad\.yml#0 match\.turn: must be a whole number/);
  });
});

// Integration tests of the simulated Gemini API (generateContent, streamGenerateContent, countTokens), driven by the official @google/genai SDK.
import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { parseSseFrames } from '../helpers/sse-frames.ts';

const MODEL = 'gemini-2.5-flash';

const WEATHER = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: {
    type: Type.OBJECT,
    properties: { city: { type: Type.STRING }, days: { type: Type.INTEGER } },
    required: ['city', 'days'],
  },
};

describe('Gemini API (simulate mode)', () => {
  let gw: TestGateway;
  let ai: GoogleGenAI;
  let beta: GoogleGenAI;
  before(async () => {
    gw = await startGateway();
    ai = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url } });
    beta = new GoogleGenAI({ apiKey: gw.token, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
  });
  after(() => gw.stop());

  test('generateContent on the default v1 path answers text with STOP and usage, billed', async () => {
    const usedBefore = gw.gateway.context.tokens.list('local')[0]!.used;
    const response = await ai.models.generateContent({ model: MODEL, contents: 'Tell me about mountains.' });
    assert.match(response.text ?? '', /[A-Za-z]+ [a-z]+/);
    const candidate = response.candidates![0]!;
    assert.equal(candidate.content?.role, 'model');
    assert.equal(candidate.finishReason, 'STOP');
    const usage = response.usageMetadata!;
    assert.ok(usage.promptTokenCount! > 0 && usage.candidatesTokenCount! > 0);
    assert.equal(usage.totalTokenCount, usage.promptTokenCount! + usage.candidatesTokenCount!);
    assert.equal(response.modelVersion, MODEL);
    assert.ok(response.responseId);
    assert.ok(gw.gateway.context.tokens.list('local')[0]!.used > usedBefore, 'the call was billed');
  });

  test('the v1beta path gives the same deterministic answer', async () => {
    const first = await ai.models.generateContent({ model: MODEL, contents: 'Describe a forest in autumn.' });
    const second = await beta.models.generateContent({ model: MODEL, contents: 'Describe a forest in autumn.' });
    assert.equal(second.text, first.text);
    assert.deepEqual(second.usageMetadata, first.usageMetadata);
  });

  test('generateContentStream yields several chunks that add up to the whole answer', async () => {
    const whole = await ai.models.generateContent({ model: MODEL, contents: 'Explain how rivers form.' });
    let text = '';
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'Explain how rivers form.' })) {
      chunks.push(chunk);
      text += chunk.text ?? '';
    }
    assert.ok(chunks.length >= 2, `chunks: ${chunks.length}`);
    assert.equal(text, whole.text);
    assert.equal(chunks.at(-1)!.candidates![0]!.finishReason, 'STOP');
    assert.equal(chunks.at(-1)!.usageMetadata!.candidatesTokenCount, whole.usageMetadata!.candidatesTokenCount);
  });

  test('countTokens matches the prompt tokens of generateContent; systemInstruction adds to the prompt', async () => {
    const contents = 'How many tokens is this sentence?';
    const counted = await ai.models.countTokens({ model: MODEL, contents });
    const plain = await ai.models.generateContent({ model: MODEL, contents });
    assert.ok(counted.totalTokens! > 0);
    assert.equal(counted.totalTokens, plain.usageMetadata!.promptTokenCount);
    const instructed = await ai.models.generateContent({
      model: MODEL,
      contents,
      config: { systemInstruction: 'You are a careful assistant who counts words exactly.' },
    });
    assert.ok(instructed.usageMetadata!.promptTokenCount! > plain.usageMetadata!.promptTokenCount!);
  });

  test('responseMimeType application/json with an OpenAPI responseSchema gives parseable, schema-shaped JSON', async () => {
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: 'List a recipe.',
      config: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: Type.OBJECT,
          properties: {
            title: { type: Type.STRING },
            servings: { type: Type.INTEGER },
            steps: { type: Type.ARRAY, items: { type: Type.STRING } },
            vegan: { type: Type.BOOLEAN, nullable: true },
          },
          required: ['title', 'servings', 'steps'],
        },
      },
    });
    const value = JSON.parse(response.text!);
    assert.equal(typeof value.title, 'string');
    assert.ok(Number.isInteger(value.servings));
    assert.ok(Array.isArray(value.steps) && value.steps.every((step: unknown) => typeof step === 'string'));
    assert.ok(value.vegan === undefined || value.vegan === null || typeof value.vegan === 'boolean');
  });

  test('functionDeclarations with mode ANY give a functionCall, and a functionResponse gets text back', async () => {
    const question = { role: 'user', parts: [{ text: 'What is the weather in Rome?' }] };
    const tools = [{ functionDeclarations: [WEATHER] }];
    const first = await ai.models.generateContent({
      model: MODEL,
      contents: [question],
      config: { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
    });
    const call = first.functionCalls?.[0];
    assert.ok(call, 'a function call');
    assert.equal(call.name, 'get_weather');
    assert.equal(typeof call.args?.['city'], 'string');
    assert.ok(Number.isInteger(call.args?.['days']));

    const second = await ai.models.generateContent({
      model: MODEL,
      contents: [
        question,
        first.candidates![0]!.content!,
        { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name!, response: { temp: 24 } } }] },
      ],
      config: { tools },
    });
    assert.equal(second.functionCalls, undefined);
    assert.match(second.text ?? '', /\w/);
  });

  test('maxOutputTokens cuts the answer with MAX_TOKENS; stopSequences cut it at the sequence', async () => {
    const cut = await ai.models.generateContent({
      model: MODEL,
      contents: 'Write a long essay about oceans.',
      config: { maxOutputTokens: 5 },
    });
    assert.equal(cut.candidates![0]!.finishReason, 'MAX_TOKENS');
    assert.ok(cut.usageMetadata!.candidatesTokenCount! <= 5);

    const stopped = await ai.models.generateContent({
      model: 'sim-echo',
      contents: 'one two END three four',
      config: { stopSequences: ['END'] },
    });
    assert.equal(stopped.text?.trim(), 'one two');
    assert.equal(stopped.candidates![0]!.finishReason, 'STOP');
  });

  test('invalid requests and bad keys throw ApiError with the HTTP status', async () => {
    await assert.rejects(
      ai.models.generateContent({ model: MODEL, contents: 'hi', config: { candidateCount: 99 } }),
      (error: unknown) => error instanceof ApiError && error.status === 400,
    );
    const stranger = new GoogleGenAI({ apiKey: 'sk-gh-nope', httpOptions: { baseUrl: gw.url } });
    await assert.rejects(
      stranger.models.generateContent({ model: MODEL, contents: 'hi' }),
      (error: unknown) => error instanceof ApiError && error.status === 401,
    );
    await assert.rejects(
      ai.models.generateContent({ model: MODEL, contents: 'hi', config: { httpOptions: { headers: { 'x-gatehouse-fault': '503' } } } }),
      (error: unknown) => error instanceof ApiError && error.status === 503,
    );
  });

  test('a disconnected or malformed stream makes the SDK throw instead of ending quietly, after its first 3 chunks', async () => {
    for (const fault of ['disconnect', 'malformed']) {
      let chunks = 0;
      await assert.rejects(
        (async () => {
          const stream = await ai.models.generateContentStream({
            model: MODEL,
            contents: 'Tell me a long story about ships.',
            config: { httpOptions: { headers: { 'x-gatehouse-fault': fault } } },
          });
          for await (const _chunk of stream) chunks++;
        })(),
        Error,
        fault,
      );
      // The answer's text pieces leave together when nothing is at fault: a fault still counts them one by one.
      assert.equal(chunks, 3, fault);
    }
  });

  test('errors have the Gemini shape on both paths; an unknown method is NOT_FOUND', async () => {
    for (const version of ['v1', 'v1beta']) {
      const bad = await request(`${gw.url}/${version}/models/${MODEL}:generateContent`, 'POST', {
        body: { contents: [] },
        headers: { 'x-goog-api-key': gw.token },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(Object.keys(bad.body.error).sort(), ['code', 'message', 'status']);
      assert.equal(bad.body.error.code, 400);
      assert.equal(bad.body.error.status, 'INVALID_ARGUMENT');
    }
    const unknown = await request(`${gw.url}/v1beta/models/${MODEL}:explode`, 'POST', {
      body: { contents: [{ parts: [{ text: 'hi' }] }] },
      headers: { 'x-goog-api-key': gw.token },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.status, 'NOT_FOUND');
  });

  test('the REST form with ?key= works, and streaming without alt=sse is one JSON array', async () => {
    const body = { contents: [{ parts: [{ text: 'Say something about the moon' }] }] };
    const rest = await request(`${gw.url}/v1beta/models/${MODEL}:generateContent?key=${gw.token}`, 'POST', { body });
    assert.equal(rest.status, 200);
    const text = rest.body.candidates[0].content.parts.map((part: any) => part.text).join('');

    const sse = await fetch(`${gw.url}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse&key=${gw.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.match(sse.headers.get('content-type') ?? '', /^text\/event-stream/);
    const frames = parseSseFrames(await sse.text());
    assert.ok(frames.every((frame) => frame.event === undefined));
    assert.equal(frames.map((frame) => frame.data.candidates[0].content.parts[0].text).join(''), text);

    const array = await fetch(`${gw.url}/v1beta/models/${MODEL}:streamGenerateContent?key=${gw.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.match(array.headers.get('content-type') ?? '', /^application\/json/);
    const chunks = JSON.parse(await array.text());
    assert.ok(Array.isArray(chunks) && chunks.length >= 2);
    assert.equal(chunks.map((chunk: any) => chunk.candidates[0].content.parts[0].text).join(''), text);
  });
});

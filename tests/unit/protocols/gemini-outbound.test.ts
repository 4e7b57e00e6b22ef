// Unit tests of the Gemini outbound codec on the shapes of the Gemini API reference: streamed chunks with thoughts and signatures, whole answers, requests that put signatures back on their parts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseGenerateContent } from '../../../electron/gateway/protocols/gemini/inbound/request.ts';
import { toGenerateContentResponse } from '../../../electron/gateway/protocols/gemini/inbound/response.ts';
import { geminiOutbound } from '../../../electron/gateway/protocols/gemini/outbound/codec.ts';
import { collectChat } from '../../../electron/gateway/protocols/neutral/deltas.ts';

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  modelVersion: 'gemini-2.5-flash',
  responseId: 'r1',
});

describe('gemini outbound', () => {
  test('a thinking stream: thought text, a signed function call, STOP after a call is tool_calls, usage with thoughts', async () => {
    const result = await collectChat(
      geminiOutbound.deltas(
        from([
          chunk([{ text: 'Let me think', thought: true }]),
          chunk([{ text: ' about it.', thought: true }]),
          chunk([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG==' }], { finishReason: 'STOP' }),
          {
            ...chunk([]),
            candidates: [],
            usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 10, thoughtsTokenCount: 25, cachedContentTokenCount: 4 },
          },
        ]),
      ),
    );
    const choice = result.choices[0]!;
    assert.deepEqual(choice.reasoning, [{ text: 'Let me think about it.', origin: 'gemini' }]);
    assert.deepEqual(choice.toolCalls, [
      { id: 'call_r1_0_0', name: 'get_weather', arguments: '{"city":"Paris"}', thoughtSignature: 'SIG==' },
    ]);
    assert.equal(choice.finishReason, 'tool_calls');
    assert.deepEqual(result.usage, { inputTokens: 30, outputTokens: 35, cachedInputTokens: 4, reasoningTokens: 25 });
  });

  test('a whole answer: a signature on the text part is kept; SAFETY is content_filter; an error chunk throws with its status', async () => {
    const result = geminiOutbound.result(chunk([{ text: 'Hello', thoughtSignature: 'TXT==' }], { finishReason: 'SAFETY' }));
    assert.equal(result.choices[0]!.text, 'Hello');
    assert.equal(result.choices[0]!.finishReason, 'content_filter');
    assert.deepEqual(result.choices[0]!.reasoning, [{ text: '', signature: 'TXT==', origin: 'gemini' }]);
    await assert.rejects(
      collectChat(geminiOutbound.deltas(from([{ error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }]))),
      (error: { status?: number; kind?: string }) => error.status === 429 && error.kind === 'rate_limited',
    );
  });

  test('the request puts each signature back where Gemini gave it, names function responses, maps tool choice and format', () => {
    const body = geminiOutbound.request(
      {
        model: 'm',
        system: 'rules',
        turns: [
          {
            role: 'user',
            text: 'see',
            parts: [
              { type: 'text', text: 'see' },
              { type: 'image', data: 'iVBOR', mediaType: 'image/png' },
            ],
          },
          {
            role: 'assistant',
            text: 'Sure.',
            reasoning: [
              { text: 'thought', origin: 'gemini' },
              { text: '', signature: 'TXT==', origin: 'gemini' },
              { text: 'claude', signature: 'ANTH', origin: 'anthropic' },
            ],
            toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":1}', thoughtSignature: 'CALL==' }],
          },
          { role: 'tool', toolCallId: 'c1', name: 'f', text: '{"ok":true}' },
          { role: 'tool', toolCallId: 'c2', name: 'g', text: 'failed', isError: true },
        ],
        tools: [{ name: 'f', parameters: { type: 'object' } }],
        toolChoice: { name: 'f' },
        format: { type: 'json_schema', schema: { type: 'object' } },
        reasoning: { effort: 'low' },
        includeReasoning: true,
      },
      { model: 'gemini-x', stream: true },
    ) as Record<string, any>;
    assert.deepEqual(body['systemInstruction'], { parts: [{ text: 'rules' }] });
    assert.deepEqual(body['contents'], [
      { role: 'user', parts: [{ text: 'see' }, { inlineData: { mimeType: 'image/png', data: 'iVBOR' } }] },
      {
        role: 'model',
        parts: [
          { text: 'Sure.', thoughtSignature: 'TXT==' },
          { functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'CALL==' },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { ok: true } } },
          { functionResponse: { name: 'g', response: { error: 'failed' } } },
        ],
      },
    ]);
    assert.deepEqual(body['toolConfig'], { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } });
    assert.deepEqual(body['generationConfig'], {
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
  });
});

describe('gemini inbound keeps thoughts and signatures', () => {
  test('thought parts and signatures (foreign ones carried) survive a round trip through a Gemini client', () => {
    const answer = toGenerateContentResponse(
      {
        choices: [
          {
            text: 'done',
            toolCalls: [{ id: 'toolu_1', name: 'f', arguments: '{}', thoughtSignature: 'G==' }],
            finishReason: 'tool_calls',
            reasoning: [{ text: 'claude thinking', signature: 'ANTH-SIG', origin: 'anthropic' }],
          },
        ],
        usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 4 },
      },
      { model: 'm', responseId: 'r' },
    );
    assert.deepEqual(answer.usageMetadata, { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 14, thoughtsTokenCount: 4 });
    const back = parseGenerateContent(
      {
        contents: [{ role: 'user', parts: [{ text: 'q' }] }, answer.candidates[0]!.content],
        generationConfig: { topP: 0.5, thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
      },
      'm',
    );
    const model = back.turns[1]!;
    assert.equal(model.role, 'assistant');
    if (model.role !== 'assistant') return;
    assert.deepEqual(model.reasoning, [{ text: 'claude thinking', signature: 'ANTH-SIG', origin: 'anthropic' }]);
    assert.equal(model.toolCalls![0]!.thoughtSignature, 'G==');
    assert.equal(back.topP, 0.5);
    assert.deepEqual(back.reasoning, { budgetTokens: 2048 });
    assert.equal(back.includeReasoning, true);
  });
});

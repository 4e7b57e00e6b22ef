// The model Connect suggests for a coding tool: read from the model list (a channel of the tool's family first), never a built-in name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suggestModel, type ModelChoice } from '../../../shared/model-suggest.ts';

const simulated = (id: string, chat = true): ModelChoice => ({ id, chat, servedBy: [{ kind: 'simulator' }] });
const relayed = (id: string, upstream: 'openai' | 'anthropic' | 'gemini'): ModelChoice => ({
  id,
  chat: true,
  servedBy: [{ kind: 'channel', channel: `${upstream}-1`, upstream }],
});

test('a model a channel of the tool’s family serves wins; else any relayed chat model; else the first simulated chat model', () => {
  const list = [simulated('sim-embed', false), simulated('sim-chat'), relayed('gpt-x', 'openai'), relayed('claude-y', 'anthropic')];
  assert.equal(suggestModel(list, 'anthropic'), 'claude-y');
  assert.equal(suggestModel(list, 'openai'), 'gpt-x');
  assert.equal(suggestModel(list, 'gemini'), 'gpt-x', 'served by another family: the gateway translates');
  assert.equal(suggestModel([simulated('sim-embed', false), simulated('sim-chat')], 'anthropic'), 'sim-chat');
  assert.equal(suggestModel([simulated('sim-embed', false)], 'gemini'), null);
});

// Unit tests of the decision fixtures and replay make once per call: kept on the call's context, one per decider, never read by a context copied from it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OncePerCall } from '../../../electron/gateway/providers/seam/once-per-call.ts';
import type { CallContext } from '../../../electron/gateway/providers/types.ts';

const callOf = (): CallContext =>
  ({ protocol: 'openai', endpoint: '/v1/chat/completions', headers: {}, signal: new AbortController().signal }) as unknown as CallContext;

test('each call is decided once, an undefined decision included; another call is decided afresh', () => {
  const once = new OncePerCall<string>();
  const asked: string[] = [];
  const decide = (answer: string | undefined) => () => {
    asked.push(String(answer));
    return answer;
  };
  const first = callOf();
  assert.equal(once.get(first, decide('fixture')), 'fixture');
  assert.equal(once.get(first, decide('other')), 'fixture');
  const second = callOf();
  assert.equal(once.get(second, decide(undefined)), undefined);
  assert.equal(once.get(second, decide('late')), undefined, 'nothing decided is kept too');
  assert.deepEqual(asked, ['fixture', 'undefined']);
});

test('two deciders keep their own decisions for the same call, whichever asks first', () => {
  const fixtures = new OncePerCall<string>();
  const replay = new OncePerCall<string>();
  const call = callOf();
  assert.equal(
    fixtures.get(call, () => undefined),
    undefined,
  );
  assert.equal(
    replay.get(call, () => 'cassette'),
    'cassette',
  );
  assert.equal(
    fixtures.get(call, () => 'fixture'),
    undefined,
  );
  assert.equal(
    replay.get(call, () => 'other'),
    'cassette',
  );
});

test('a context copied from a decided one ({ ...call }, a derived call) is decided afresh, and the original keeps its own', () => {
  const once = new OncePerCall<string>();
  const call = callOf();
  assert.equal(
    once.get(call, () => 'original'),
    'original',
  );
  const derived: CallContext = { ...call, body: { input: 'more' } };
  assert.equal(
    once.get(derived, () => 'derived'),
    'derived',
  );
  assert.equal(
    once.get(derived, () => 'again'),
    'derived',
  );
  assert.equal(
    once.get(call, () => 'again'),
    'original',
  );
});

// A channel's model list as routing reads it: parsed once per stored text, and read-only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storedModels, upstreamModelOf } from '../../../electron/gateway/services/channel-models.ts';

test('a stored list is parsed once per text; an edited list is parsed anew', () => {
  const first = storedModels('gpt-4o, fast=gpt-4o-mini');
  assert.equal(storedModels('gpt-4o, fast=gpt-4o-mini'), first);
  assert.deepEqual(first, [
    { local: 'gpt-4o', upstream: 'gpt-4o' },
    { local: 'fast', upstream: 'gpt-4o-mini' },
  ]);
  assert.equal(upstreamModelOf(first, 'fast'), 'gpt-4o-mini');
  const edited = storedModels('gpt-4o, fast=gpt-4.1-mini');
  assert.notEqual(edited, first);
  assert.equal(upstreamModelOf(edited, 'fast'), 'gpt-4.1-mini');
});

test('the kept entries cannot be changed by a caller', () => {
  const entries = storedModels('a=b, *');
  assert.throws(() => (entries as { local: string; upstream: string }[]).push({ local: 'x', upstream: 'y' }), TypeError);
  assert.throws(() => {
    (entries[0] as { upstream: string }).upstream = 'changed';
  }, TypeError);
  assert.equal(upstreamModelOf(storedModels('a=b, *'), 'a'), 'b');
});

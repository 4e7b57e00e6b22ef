// The simulated model's seed material: the same value in JSON, its keys sorted, so key order never changes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../../electron/gateway/providers/simulate/text/seed.ts';

/** The same value with every object's keys inserted in sorted order (or reversed), through JSON's own data model. */
function reordered(value: unknown, reverse: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => reordered(item, reverse));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort();
  if (reverse) keys.reverse();
  return Object.fromEntries(keys.map((key) => [key, reordered((value as Record<string, unknown>)[key], reverse)]));
}

test('canonical JSON stands for the same value, whatever order its keys came in', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
      const text = canonicalJson(value);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
      assert.equal(canonicalJson(reordered(value, true)), text);
      assert.equal(canonicalJson(reordered(value, false)), text);
    }),
    { numRuns: 500, seed: 2411 },
  );
});

test('keys come in code-unit order, index-like keys included (unlike JSON.stringify, which puts those first)', () => {
  assert.equal(
    canonicalJson({ b: 1, '10': 2, '': 3, '9': { z: [], a: null }, B: true }),
    '{"":3,"10":2,"9":{"a":null,"z":[]},"B":true,"b":1}',
  );
});

test('undefined fields are left out and an undefined item is null, as JSON.stringify does', () => {
  assert.equal(canonicalJson({ b: undefined, a: [undefined, 1], c: { z: 1, y: undefined } }), '{"a":[null,1],"c":{"z":1}}');
  assert.equal(canonicalJson(undefined), 'null');
});

// Unit tests of the JSON depth check: it agrees with the real nesting of any JSON value, brackets inside strings do not count, and it needs no stack.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../electron/gateway/server/json-depth.ts';

/** Nesting of a parsed value (recursive: only for the small values generated here). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('nestsDeeperThan', () => {
  test('agrees with the nesting of any JSON value, whatever its strings hold', () => {
    const tricky = fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', '[[{', '"]}');
    const text = fc.oneof(
      fc.string(),
      fc.array(tricky).map((parts) => parts.join('')),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (generated, max) => {
        const json = JSON.stringify(generated);
        assert.equal(nestsDeeperThan(json, max), depthOf(generated) > max, json);
      }),
      { numRuns: 500, seed: 10_2 },
    );
  });

  test('the limit itself passes, one more level does not', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH)), false);
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1)), true);
  });

  test('a million levels are measured without a stack overflow', () => {
    assert.equal(nestsDeeperThan('{"a":'.repeat(1_000_000)), true);
    assert.equal(nestsDeeperThan(`"${'['.repeat(1_000_000)}"`), false, 'brackets in a string do not nest');
  });
});

// Unit tests of how the journal shows a received JSON body: indented exactly as JSON.stringify(value, null, 2) would, from the text, within a size limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { indentJson } from '../../../electron/gateway/server/journal-body.ts';

describe('indentJson', () => {
  test('indents any JSON text, compact or spaced, as JSON.stringify(value, null, 2) does', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, '\t', ' ', '\n  '), (value, spacing) => {
        const received = JSON.stringify(value, null, spacing);
        assert.equal(indentJson(received, Number.MAX_SAFE_INTEGER), JSON.stringify(value, null, 2));
      }),
      { numRuns: 500, seed: 10_2 },
    );
  });

  test('keeps strings and numbers as received', () => {
    assert.equal(indentJson('{"a":"x\\u0041\\"]}","n":1.50e3}', 1000), '{\n  "a": "x\\u0041\\"]}",\n  "n": 1.50e3\n}');
  });

  test('gives up (null) as soon as the indented text would pass the limit, however deep or long the input', () => {
    const deep = `${'['.repeat(64)}${'0,'.repeat(100_000)}0${']'.repeat(64)}`;
    assert.equal(indentJson(deep, 64 * 1024), null);
    assert.equal(indentJson('[1,2]', 8), null);
    assert.equal(indentJson('[1,2]', 12), '[\n  1,\n  2\n]');
  });
});

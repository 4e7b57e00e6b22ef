// Unit tests of cutting Gemini's JSON array stream into elements: the bytes pass as they came, and an element that never closes is held no further than the cap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsonArrayPieces } from '../../../electron/gateway/providers/relay/json-array-pieces.ts';
import { concat } from '../../../shared/sse-reader.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const same = (element: Uint8Array) => element;

test('any chunking of an array gives its elements one by one and, with its rest, the very bytes that came', () => {
  const element = fc.oneof(
    fc.json().filter((text) => text.startsWith('{') || text.startsWith('[')),
    fc.constant('{"t":"a {[ \\"q\\" \\\\ é🎉"}'),
  );
  fc.assert(
    fc.property(fc.array(element, { maxLength: 8 }), fc.array(fc.nat({ max: 300 }), { maxLength: 10 }), (elements, cuts) => {
      const bytes = encode(`[${elements.join(',\r\n')}]`);
      const pieces = new JsonArrayPieces();
      const seen: string[] = [];
      const out: Uint8Array[] = [];
      let at = 0;
      for (const cut of [...cuts.filter((c) => c < bytes.length).sort((a, b) => a - b), bytes.length]) {
        out.push(...pieces.push(bytes.subarray(at, Math.max(at, cut)), (piece) => (seen.push(new TextDecoder().decode(piece)), piece)));
        at = Math.max(at, cut);
      }
      out.push(pieces.rest());
      assert.deepEqual(concat(out), bytes);
      assert.deepEqual(seen, elements);
    }),
    { numRuns: 300, seed: 25_3 },
  );
});

test('an element that never closes stops the cutter at the cap: nothing of it is passed or held beyond it', () => {
  const pieces = new JsonArrayPieces({ eventBytes: 1024, streamBytes: 1 << 20 });
  assert.deepEqual(
    pieces.push(encode('[{"a":1},'), same).map((piece) => new TextDecoder().decode(piece)),
    ['[', '{"a":1}'],
  );
  const endless = encode('x'.repeat(256));
  let passed = 0;
  for (let i = 0; i < 100 && !pieces.overflow; i += 1) passed += pieces.push(i === 0 ? encode('{"t":"') : endless, same).length;
  assert.equal(pieces.overflow, 'event');
  assert.equal(passed, 0);
  assert.equal(pieces.rest().length, 0);
});

test('a stream of small elements stops at the stream cap', () => {
  const pieces = new JsonArrayPieces({ eventBytes: 1024, streamBytes: 4096 });
  pieces.push(encode('['), same);
  for (let i = 0; i < 1000 && !pieces.overflow; i += 1) pieces.push(encode('{"a":1},'), same);
  assert.equal(pieces.overflow, 'stream');
});

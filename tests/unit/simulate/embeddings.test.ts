// Unit tests of the simulated embeddings: unit length, determinism, dimensions, word overlap and exact base64 float32.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DIMENSIONS, embed, tokensAsText } from '../../../electron/gateway/providers/simulate/embeddings.ts';
import { toBase64 } from '../../../electron/gateway/protocols/openai/inbound/embeddings.ts';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

test('vectors have unit length, the default or the asked dimension, and are deterministic', () => {
  for (const dimensions of [DEFAULT_DIMENSIONS, 256, 3]) {
    const vector = embed('Deterministic vectors, please.', dimensions);
    assert.equal(vector.length, dimensions);
    assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-6);
    assert.deepEqual(embed('Deterministic vectors, please.', dimensions), vector);
  }
  const punctuationOnly = embed('?!');
  assert.ok(Math.abs(dot(punctuationOnly, punctuationOnly) - 1) < 1e-6, 'a text without words still has a unit vector');
});

test('shared words and word stems bring texts closer; different texts differ', () => {
  const query = embed('how do I reset my password');
  const related = embed('reset your password from the login page');
  const unrelated = embed('the orchestra played a symphony by Brahms');
  assert.ok(dot(query, related) > dot(query, unrelated) + 0.2);
  // Character trigrams make inflections close even without a shared word.
  assert.ok(dot(embed('running runner'), embed('runs run')) > dot(embed('running runner'), embed('table chair')));
  assert.ok(dot(embed('same words here'), embed('here words same')) < 1, 'word order aside, distinct texts are distinct');
});

test('token arrays embed as pseudo-words, equal for equal sequences', () => {
  assert.equal(tokensAsText([15339, 1917]), 'tok15339 tok1917');
  assert.deepEqual(embed(tokensAsText([1, 2, 3])), embed(tokensAsText([1, 2, 3])));
});

test('base64 is the little-endian float32 bytes of the vector', () => {
  const vector = embed('bytes', 8);
  const bytes = Buffer.from(toBase64(vector), 'base64');
  assert.equal(bytes.length, 32);
  assert.deepEqual(
    Array.from({ length: 8 }, (_, i) => bytes.readFloatLE(i * 4)),
    Array.from(vector),
  );
});

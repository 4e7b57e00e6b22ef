// Unit tests of the BM25 scorer behind /v1/rerank: a hand-computed score, term rarity, document length and the [0, 1) mapping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bm25Scores, relevance } from '../../../electron/gateway/providers/simulate/bm25.ts';

test('a score matches Okapi BM25 (k1 = 1.2, b = 0.75) computed by hand', () => {
  // Corpus lengths 2, 3, 1 (average 2); "c" occurs in one of three documents, twice in the second.
  const [first, second, third] = bm25Scores('c', ['a b', 'a c c', 'd']);
  const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
  const expected = (idf * 2 * 2.2) / (2 + 1.2 * (1 - 0.75 + (0.75 * 3) / 2));
  assert.equal(first, 0);
  assert.ok(Math.abs(second! - expected) < 1e-12, `${second} vs ${expected}`);
  assert.equal(third, 0);
});

test('matching is case-insensitive on words, ignoring punctuation', () => {
  const [score] = bm25Scores('PARIS?', ['Paris, France.', 'Rome']);
  assert.ok(score! > 0);
});

test('a rare query term weighs more than a common one', () => {
  const documents = ['common rare', 'common', 'common', 'common filler'];
  const scores = bm25Scores('common rare', documents);
  assert.ok(scores[0]! > scores[1]! * 2, JSON.stringify(scores));
  const [onlyRare] = bm25Scores('rare', documents);
  const [onlyCommon] = bm25Scores('common', documents);
  assert.ok(onlyRare! > onlyCommon!);
});

test('with the same term count, a shorter document ranks higher; more occurrences rank higher', () => {
  const [short, long] = bm25Scores('tower', ['the tower', 'the tower stands tall over the old city square']);
  assert.ok(short! > long!);
  const [once, twice] = bm25Scores('tower', ['tower one two three', 'tower tower two three']);
  assert.ok(twice! > once!);
});

test('relevance maps scores into [0, 1) keeping their order', () => {
  const scores = [0, 0.1, 1, 3.7, 50];
  const mapped = scores.map(relevance);
  assert.equal(mapped[0], 0);
  for (let i = 1; i < mapped.length; i++) assert.ok(mapped[i]! > mapped[i - 1]! && mapped[i]! < 1);
});

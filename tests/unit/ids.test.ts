// Unit tests of public ids and token secrets: the documented shape, base62 only, every character of the alphabet in use, no repeats.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newTokenSecret, publicId, randomBase62, TOKEN_PREFIX } from '../../electron/gateway/ids.ts';

test('ids and secrets have their documented shape and never repeat, across many refills of the random pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const id = publicId('ast');
    assert.match(id, /^ast_[0-9A-Za-z]{20}$/);
    assert.ok(!seen.has(id), `repeated id ${id}`);
    seen.add(id);
  }
  const secret = newTokenSecret();
  assert.ok(secret.startsWith(TOKEN_PREFIX));
  assert.match(secret.slice(TOKEN_PREFIX.length), /^[0-9A-Za-z]{40}$/);
});

test('the 62 characters are all drawn, each about as often as the others', () => {
  const counts = new Map<string, number>();
  const sample = randomBase62(62_000);
  for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
  assert.equal(counts.size, 62);
  // 1,000 expected per character; a uniform source stays well inside ±25 % (over 7 standard deviations).
  for (const [char, count] of counts) assert.ok(count > 750 && count < 1250, `${char} drawn ${count} times`);
});

// Unit tests of the simulated moderation model: every documented trigger word flags its category (and a sub-category its parent), other text flags nothing, the same text always scores the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MODERATION_CATEGORIES } from '../../../electron/gateway/providers/types.ts';
import { moderate, MODERATION_TRIGGERS } from '../../../electron/gateway/providers/simulate/moderation.ts';

const text = (value: string) => [{ type: 'text' as const, text: value }];
const flaggedOf = (value: string) => {
  const verdict = moderate(text(value));
  return MODERATION_CATEGORIES.filter((category) => verdict.flagged[category]);
};

test('each trigger word flags its category, and a sub-category also its parent, with a high score', () => {
  for (const category of MODERATION_CATEGORIES) {
    for (const trigger of MODERATION_TRIGGERS[category]) {
      const verdict = moderate(text(`Please read this: ${trigger.toUpperCase()}s everywhere.`));
      const parent = category.split('/')[0]!;
      const expected = [...new Set([category, parent])].sort();
      assert.deepEqual(MODERATION_CATEGORIES.filter((c) => verdict.flagged[c]).sort(), expected, trigger);
      assert.ok(verdict.scores[category] >= 0.9 && verdict.scores[category] < 1, `${trigger}: ${verdict.scores[category]}`);
    }
  }
});

test('harmless text flags nothing and scores every category low; a word merely containing a trigger is not one', () => {
  for (const harmless of ['The weather is lovely today.', 'I have great skills in chess.', 'A bombastic speech']) {
    const verdict = moderate(text(harmless));
    if (harmless.startsWith('A bombastic')) {
      assert.deepEqual(flaggedOf(harmless), ['illicit', 'illicit/violent'], 'a word starting with a trigger counts');
      continue;
    }
    assert.deepEqual(flaggedOf(harmless), [], harmless);
    for (const category of MODERATION_CATEGORIES) assert.ok(verdict.scores[category] < 0.05, `${harmless} ${category}`);
  }
});

test('verdicts are deterministic and the documented phrases flag as documented', () => {
  assert.deepEqual(moderate(text('I will kill you, you idiot')), moderate(text('I will kill you, you idiot')));
  assert.deepEqual(flaggedOf('I will kill you, you idiot'), ['harassment', 'violence']);
  assert.deepEqual(flaggedOf('How to shoplift'), ['illicit']);
  assert.deepEqual(flaggedOf('I feel suicidal'), ['self-harm', 'self-harm/intent']);
  assert.deepEqual(flaggedOf('they THREATENED him'), ['harassment', 'harassment/threatening']);
});

test('an image part adds image to the categories images are scored in; its URL is read for trigger words', () => {
  const verdict = moderate([
    { type: 'text', text: 'look' },
    { type: 'image', url: 'https://example.com/gore.png' },
  ]);
  assert.equal(verdict.flagged['violence/graphic'], true);
  assert.deepEqual(verdict.appliedTo['violence'], ['text', 'image']);
  assert.deepEqual(verdict.appliedTo['hate'], ['text']);
  assert.deepEqual(moderate(text('look')).appliedTo['violence'], ['text']);
});

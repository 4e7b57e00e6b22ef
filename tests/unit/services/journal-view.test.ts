// Unit tests of how the journal shows a received JSON body when an entry is read: indented exactly as JSON.stringify(value, null, 2) would, from the text, within a size limit; anything else as kept.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { JournalBody } from '../../../shared/journal.ts';
import { journalEntry, keptBody } from '../../helpers/journal.ts';
import { indentJson, journalView } from '../../../electron/gateway/services/journal-view.ts';

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

describe('journalView', () => {
  const entryWith = (request: JournalBody) => journalEntry(1, { request, response: keptBody('{"a":1}') });
  const shown = (request: JournalBody) => journalView(entryWith(request));

  test('a whole JSON request, kept as received, is shown indented; the answer is shown as sent', () => {
    const view = shown({ contentType: 'application/json; charset=utf-8', bytes: 17, text: '{"input":["a",1]}', truncated: false });
    assert.equal(view.request.text, '{\n  "input": [\n    "a",\n    1\n  ]\n}');
    assert.equal(view.request.bytes, 17);
    assert.equal(view.response.text, '{"a":1}');
  });

  test('JSON sent under another content type is indented too, as the gateway read it as JSON', () => {
    const view = shown({ contentType: 'application/x-www-form-urlencoded', bytes: 7, text: '{"a":1}', truncated: false });
    assert.equal(view.request.text, '{\n  "a": 1\n}');
  });

  test('a cut, invalid, non-JSON or too large body is shown as kept', () => {
    const kept: JournalBody[] = [
      { contentType: 'application/json', bytes: 99, text: '{"input":["a"', truncated: true },
      { contentType: 'application/json', bytes: 9, text: '{"input":', truncated: false },
      { contentType: 'text/plain', bytes: 7, text: 'a: 1, b: [2]', truncated: false },
      { contentType: 'application/json', bytes: 7, text: '"a b c"', truncated: false },
      { contentType: 'application/json', bytes: 0, text: null, truncated: false },
    ];
    const wide = `[${Array.from({ length: 15_000 }, () => '1').join(',')}]`;
    kept.push({ contentType: 'application/json', bytes: wide.length, text: wide, truncated: false });
    for (const body of kept) assert.deepEqual(shown(body).request, body, String(body.text).slice(0, 40));
  });
});

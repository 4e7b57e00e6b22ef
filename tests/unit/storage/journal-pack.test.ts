// The journal's packed answer texts: any text packs to a form that unpacks to the very same text (lines that look packed, surrogate pairs cut where lines part, carriage returns), and a stream's events pack to a fraction.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JOURNAL_PACK_MIN_CHARS, packJournalText, packLines, unpackJournalText } from '../../../electron/gateway/storage/journal-pack.ts';

/** Pieces lines are made of: the pack's own mark and separators, digits, surrogate pairs sharing their first half, a lone half, a carriage return. */
const PIECES = ['a', 'b', '\u0001', ',', '1', '0', '😀', '😃', '\ud83d', 'é', '\r', 'data: {"x":', '"}', ' '];

/** Texts of repeated, slightly varied lines (as a stream's events are), long enough to be packed. */
const streamLike = fc
  .record({
    base: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 40 }).map((pieces) => pieces.join('')),
    lines: fc.array(
      fc.record({
        cut: fc.nat(),
        inserted: fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }),
        empty: fc.boolean(),
        newline: fc.boolean(),
      }),
      { minLength: 1, maxLength: 120 },
    ),
  })
  .map(({ base, lines }) => {
    let text = '';
    for (const { cut, inserted, empty, newline } of lines) {
      const at = cut % (base.length + 1);
      if (!empty) text += base.slice(0, at) + inserted.join('') + base.slice(at);
      text += newline ? '\n' : '';
    }
    return text.repeat(Math.ceil(JOURNAL_PACK_MIN_CHARS / Math.max(text.length, 1)));
  });

test('any text, packed line by line, unpacks to the very same text', () => {
  fc.assert(
    fc.property(streamLike, (text) => assert.equal(unpackJournalText(packLines(text)), text)),
    { numRuns: 400 },
  );
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 3 * JOURNAL_PACK_MIN_CHARS }), (text) =>
      assert.equal(unpackJournalText(packLines(text)), text),
    ),
    { numRuns: 200 },
  );
});

test('a stream of long, similar events packs to a fraction of its length; a short text, short lines or unlike lines are stored as they are', () => {
  const events = ['In', ' practice', ',', ' say', ' 😀', ' 😃', '\u0001', ' done.']
    .map(
      (content) =>
        `data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1,"model":"sim-chat","system_fingerprint":"fp_sim","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}],"usage":null}\n\n`,
    )
    .join('')
    .repeat(8);
  const packed = packJournalText(events);
  assert.ok(packed !== null && packed.length < events.length / 4, `${packed?.length} of ${events.length}`);
  assert.equal(unpackJournalText(packed), events);
  assert.equal(packJournalText(events.slice(0, JOURNAL_PACK_MIN_CHARS - 1)), null, 'too short to pay');
  // Named events (Anthropic, Responses) alternate `event:` and `data:` lines, some streams end lines with CRLF: each line
  // is compared with the last one that began as it does, so they pack as well; but lines this short cost more to pack
  // than they save, and are stored as they are.
  const named = ['Hello', ' there', ' 😀', ' and', ' more']
    .map(
      (text) =>
        `event: content_block_delta\r\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\r\n\r\n`,
    )
    .join('')
    .repeat(12);
  const linesPacked = packLines(named);
  assert.ok(linesPacked.length < named.length / 4, `${linesPacked.length} of ${named.length}`);
  assert.equal(unpackJournalText(linesPacked), named);
  assert.equal(packJournalText(named), null, 'short lines');
  // Long lines of pseudo-random letters: next to nothing in common.
  let seed = 7;
  const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) % 26));
  const unlike = Array.from({ length: 60 }, () => Array.from({ length: 200 }, letter).join('')).join('\n');
  assert.equal(packJournalText(unlike), null, 'long lines that share little are stored as they are');
});

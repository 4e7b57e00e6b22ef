// The journal's packed answer texts: any text packs to a form that unpacks to the very same text (lines that look packed, surrogate pairs cut where lines part, carriage returns), and a stream's events pack to a fraction.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JOURNAL_PACK_MIN_CHARS, packJournalText, unpackJournalText } from '../../../electron/gateway/storage/journal-pack.ts';

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

test('any text that packs unpacks to the very same text', () => {
  fc.assert(
    fc.property(streamLike, (text) => {
      const packed = packJournalText(text);
      if (packed !== null) assert.equal(unpackJournalText(packed), text);
    }),
    { numRuns: 400 },
  );
  fc.assert(
    fc.property(fc.string({ unit: 'binary', minLength: JOURNAL_PACK_MIN_CHARS, maxLength: 3 * JOURNAL_PACK_MIN_CHARS }), (text) => {
      const packed = packJournalText(text);
      if (packed !== null) assert.equal(unpackJournalText(packed), text);
    }),
    { numRuns: 100 },
  );
});

test('a stream of similar events packs to a fraction of its length; a short or unlike text is not packed', () => {
  const events = ['In', ' practice', ',', ' say', ' 😀', ' 😃', '\u0001', ' done.']
    .map(
      (content) =>
        `data: {"id":"chatcmpl_1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`,
    )
    .join('')
    .repeat(8);
  const packed = packJournalText(events);
  assert.ok(packed !== null && packed.length < events.length / 4, `${packed?.length} of ${events.length}`);
  assert.equal(unpackJournalText(packed), events);
  assert.equal(packJournalText(events.slice(0, JOURNAL_PACK_MIN_CHARS - 1)), null, 'too short to pay');
  // Named events (Anthropic, Responses) alternate `event:` and `data:` lines, some streams end lines with CRLF: each line
  // is compared with the last one that began as it does.
  const named = ['Hello', ' there', ' 😀', ' and', ' more']
    .map(
      (text) =>
        `event: content_block_delta\r\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\r\n\r\n`,
    )
    .join('')
    .repeat(12);
  const packedNamed = packJournalText(named);
  assert.ok(packedNamed !== null && packedNamed.length < named.length / 4, `${packedNamed?.length} of ${named.length}`);
  assert.equal(unpackJournalText(packedNamed), named);
  const unlike = Array.from({ length: 400 }, (_, index) => `${index * 7919}`.repeat(3)).join('\n');
  assert.equal(packJournalText(unlike), null, 'lines that share little are stored as they are');
});

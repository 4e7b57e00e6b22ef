// Unit tests of the secret scrub: a key in any encoding (raw, JSON escapes, percent, base64 at any alignment) becomes its hint, however a stream is cut, holding back only a bounded tail.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { hideSecret, secretHint } from '../../../shared/channels.ts';
import { keptMatchStateBytes, SecretScrubber, scrubText, scrubWhole, SPARE_STATE_BYTES } from '../../../shared/secret-scrub.ts';
import { percentEscape as percent, reveals, unicodeEscape } from '../../helpers/secret-encodings.ts';

const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/+.';
const key = fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 12, maxLength: 48 }).map((rest) => `sk-${rest}`);

/** One way to write the key: raw, JSON-escaped or percent-encoded per character (chosen by `picks`), or in base64 inside other bytes. */
type Encoding =
  { how: 'raw' } | { how: 'json' | 'percent'; picks: number[] } | { how: 'base64' | 'base64url'; before: string; after: string };

function encode(secret: string, encoding: Encoding): string {
  switch (encoding.how) {
    case 'raw':
      return secret;
    case 'json':
      return [...secret]
        .map((char, index) => {
          const pick = encoding.picks[index % encoding.picks.length]!;
          if (pick === 0) return char;
          if (pick === 3 && char === '/') return '\\/';
          // A character beyond the BMP is two escapes, one per UTF-16 unit.
          return [...Array(char.length).keys()].map((unit) => unicodeEscape(char[unit]!, pick === 2)).join('');
        })
        .join('');
    case 'percent':
      return [...secret]
        .map((char, index) => {
          const pick = encoding.picks[index % encoding.picks.length]!;
          // A non-ASCII character is percent-encoded byte by byte of its UTF-8 (`é` is `%c3%a9`, or `%C3%A9`).
          return pick === 0 ? char : Array.from(Buffer.from(char), (byte) => percent(String.fromCharCode(byte), pick === 2)).join('');
        })
        .join('');
    default:
      return Buffer.from(`${encoding.before}${secret}${encoding.after}`).toString(encoding.how);
  }
}

const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  fc.constant({ how: 'raw' as const }),
  fc.record({
    how: fc.constantFrom('json' as const, 'percent' as const),
    picks: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
  }),
  fc.record({
    how: fc.constantFrom('base64' as const, 'base64url' as const),
    before: fc.string({ maxLength: 5 }),
    after: fc.string({ maxLength: 5 }),
  }),
);

/** Text around the keys: characters that start or look like the encodings, so that near misses are common. */
const filler = fc.string({ unit: fc.constantFrom(...'sk-ab\\u00%7F3/+=\n "é{}:'.split('')), maxLength: 24 });

/** `bytes` through a scrubber in pieces cut at `cuts`; the output, and the most bytes it held back after any piece. */
function streamed(scrubber: SecretScrubber, bytes: Uint8Array, cuts: number[]): { out: Buffer; mostHeld: number } {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  let mostHeld = 0;
  for (const to of [...points, bytes.length]) {
    parts.push(scrubber.pass(bytes.subarray(from, to)));
    mostHeld = Math.max(mostHeld, scrubber.heldBytes);
    // A piece that ends a line (an SSE event's closing blank line) is never held: no encoded key holds a line feed.
    if (to > from && bytes[to - 1] === 0x0a) assert.equal(scrubber.heldBytes, 0, 'nothing after a line feed is held');
    from = to;
  }
  parts.push(scrubber.end());
  return { out: Buffer.concat(parts), mostHeld };
}

describe('SecretScrubber', () => {
  test('any cut of any text with keys in any encoding: the same output as the whole, no encoded key in it, a bounded tail held', () => {
    fc.assert(
      fc.property(
        key,
        fc.array(fc.tuple(filler, encoding), { maxLength: 5 }),
        filler,
        fc.array(fc.nat(), { maxLength: 12 }),
        (secret, pieces, last, cuts) => {
          const text = pieces.map(([before, how]) => before + encode(secret, how)).join('') + last;
          const hidden = [{ secret, hint: secretHint(secret) }];
          const whole = scrubText(text, hidden);
          const scrubber = new SecretScrubber(hidden);
          const { out, mostHeld } = streamed(scrubber, Buffer.from(text), cuts);
          assert.equal(out.toString('utf8'), whole, 'cut anywhere, the output is the same');
          assert.equal(reveals(whole, secret), false, `no encoded key in ${JSON.stringify(whole)}`);
          for (const [, how] of pieces) assert.equal(whole.includes(encode(secret, how)), false);
          assert.ok(mostHeld <= scrubber.holdLimit, `held ${mostHeld} bytes, at most ${scrubber.holdLimit}`);
          if (pieces.length > 0) assert.ok(whole.includes(secretHint(secret)), 'the hint stands in for the key');
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a chunk read whole, skipping starts its next byte ends, writes and holds what the same bytes one a chunk do', () => {
    // One byte a chunk, the byte after a start is never in the chunk, so every start is read: the scan without the skip.
    // Besides the usual keys: a non-ASCII first character (its percent form starts `%C3`/`%c3`, so the table's other-case
    // half decides whether `%` is read), keys of 1 to 3 characters (a start that is a whole match, or ends its position at
    // once), and keys over `ab` that overlap themselves.
    const nonAsciiFirst = fc
      .tuple(fc.constantFrom('é', 'É', 'ü', 'Ω', '日', '🎉'), fc.string({ unit: fc.constantFrom(...'ab-/é'), maxLength: 16 }))
      .map(([first, rest]) => first + rest);
    const short = fc.string({ unit: fc.constantFrom(...'ab-/é日'), minLength: 1, maxLength: 3 });
    const overlapping = fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1, maxLength: 8 });
    const anyKey = fc.oneof(key, nonAsciiFirst, short, overlapping);
    const nearMisses = fc.string({
      unit: fc.constantFrom(...'sk-csz2NTc%5C\\u00Zm9v3/+=\n "{}:abé日C3c3A9a9'.split(''), '%C3', '%c3', '%E6', '%e6', '%F0'),
      maxLength: 60,
    });
    fc.assert(
      fc.property(anyKey, fc.array(fc.tuple(nearMisses, encoding), { maxLength: 4 }), nearMisses, (secret, pieces, last) => {
        const bytes = Buffer.from(pieces.map(([before, how]) => before + encode(secret, how)).join('') + last);
        const hidden = [{ secret, hint: secretHint(secret) }];
        const whole = new SecretScrubber(hidden);
        const passed = whole.pass(bytes);
        const heldWhole = whole.heldBytes;
        const byByte = new SecretScrubber(hidden);
        const pieces1 = Array.from(bytes, (_, index) => byByte.pass(bytes.subarray(index, index + 1)));
        assert.equal(heldWhole, byByte.heldBytes, 'the same tail held');
        assert.deepEqual(Buffer.concat([passed, whole.end()]), Buffer.concat([...pieces1, byByte.end()]));
      }),
      { numRuns: 500 },
    );
  });

  test('text without the key passes byte for byte, however it is cut', () => {
    fc.assert(
      fc.property(key, fc.string({ unit: 'binary', maxLength: 200 }), fc.array(fc.nat(), { maxLength: 8 }), (secret, text, cuts) => {
        fc.pre(!reveals(text, secret));
        const bytes = Buffer.from(text);
        const { out } = streamed(new SecretScrubber([{ secret, hint: secretHint(secret) }]), bytes, cuts);
        assert.deepEqual(out, bytes);
      }),
    );
  });

  test('many scrubbers of one key, interleaved, ended or abandoned mid-match: each writes what the whole text scrubbed gives', () => {
    // Scrubbers of one machine share its spare match states: one ended hands its state to the next made.
    fc.assert(
      fc.property(
        key,
        fc.array(fc.tuple(fc.array(fc.tuple(filler, encoding), { maxLength: 3 }), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean()), {
          minLength: 2,
          maxLength: 8,
        }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        (secret, streams, order) => {
          const hidden = [{ secret, hint: secretHint(secret) }];
          const runs = streams.map(([pieces, cuts, abandoned]) => {
            const bytes = Buffer.from(pieces.map(([before, how]) => before + encode(secret, how)).join('') + 'end');
            const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
            const bounds = [...points, bytes.length].map((to, index, all) => [index === 0 ? 0 : all[index - 1]!, to] as const);
            return { bytes, bounds, abandoned, scrubber: new SecretScrubber(hidden), out: [] as Uint8Array[], done: false };
          });
          // One piece of a stream chosen by `order` at a time, until every stream ended (or was dropped before its end).
          for (let turn = 0; runs.some((run) => !run.done); turn++) {
            const open = runs.filter((run) => !run.done);
            const run = open[order[turn % order.length]! % open.length]!;
            const next = run.bounds.shift();
            if (next) run.out.push(run.scrubber.pass(run.bytes.subarray(next[0], next[1])));
            if (run.bounds.length === 0 || (run.abandoned && run.bounds.length === 1)) {
              if (!run.abandoned) run.out.push(run.scrubber.end());
              run.done = true;
            }
          }
          for (const run of runs.filter((one) => !one.abandoned)) {
            assert.equal(Buffer.concat(run.out).toString('utf8'), scrubText(run.bytes.toString('utf8'), hidden));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test('the match states kept for later scrubbers stay within SPARE_STATE_BYTES, however many long keys were scrubbed at once', () => {
    const keys = Array.from({ length: 40 }, (_, index) => `sk-proj-${String(index).padStart(4, '0')}${'Zq8xW3'.repeat(26)}`);
    const open = keys.flatMap((secret) =>
      [0, 1].map(() => ({ secret, scrubber: new SecretScrubber([{ secret, hint: secretHint(secret) }]) })),
    );
    for (const { secret, scrubber } of open) {
      const out = Buffer.concat([scrubber.pass(Buffer.from(`{"echo":"${secret}"}`)), scrubber.end()]).toString();
      assert.equal(out, `{"echo":"${secretHint(secret)}"}`);
      assert.ok(keptMatchStateBytes() <= SPARE_STATE_BYTES, `${keptMatchStateBytes()} bytes kept`);
    }
    assert.ok(keptMatchStateBytes() > 0, 'the latest states are kept');
    // The first keys' states were dropped to stay within the bound: their scrubbers make their own and still find the key.
    assert.equal(scrubText(`a ${keys[0]} b`, [{ secret: keys[0]!, hint: secretHint(keys[0]!) }]), `a ${secretHint(keys[0]!)} b`);
  });

  test('a key split across chunks, half of it escaped, is still found; the bytes before it are not held', () => {
    const secret = 'sk-proj-0123456789abcdefghijklmnop';
    const escaped = [...secret.slice(10)].map((char) => unicodeEscape(char, true)).join('');
    const scrubber = new SecretScrubber([{ secret, hint: secretHint(secret) }]);
    const first = Buffer.from(scrubber.pass(Buffer.from(`data: {"a":"x"}\n\ndata: {"key":"${secret.slice(0, 10)}`))).toString();
    assert.equal(first, 'data: {"a":"x"}\n\ndata: {"key":"', 'everything before the key passes at once');
    const second = Buffer.from(scrubber.pass(Buffer.from(`${escaped}"}\n\n`))).toString();
    assert.equal(second, `${secretHint(secret)}"}\n\n`);
    assert.equal(scrubber.end().length, 0);
  });
});

describe('hideSecret', () => {
  test('an error text that echoes the key JSON-escaped, percent-encoded or in base64 shows the hint', () => {
    const secret = 'sk-ant-api03-ZYXWVUTSRQ_ponmlkji-9876';
    const hint = secretHint(secret);
    const escaped = [...secret].map((char) => unicodeEscape(char, false)).join('');
    const text = `bad key ${escaped}; url ?key=${encodeURIComponent(secret).replaceAll('-', '%2D')}; basic ${Buffer.from(`u:${secret}`).toString('base64')}`;
    const hidden = hideSecret(text, secret);
    assert.equal(reveals(hidden, secret), false, hidden);
    assert.equal(hidden.split(hint).length - 1, 3, 'three hints');
    assert.equal(hideSecret('nothing here', secret), 'nothing here');
    assert.equal(hideSecret(text, null), text);
  });

  test("an AK:SK pair: either half echoed alone (the secret key escaped) shows that half's hint; the whole pair its own", () => {
    const ak = 'AKLTZmYyNjE0ZDE2NTgyNDU';
    const sk = 'TmpRME5HRmlNMkV4TkRFMU5HSTVZVEkzTXpWaE1qSmpNV1E';
    const pair = `${ak}:${sk}`;
    const text = `bad id ${ak}, secret ${[...sk].map((char) => unicodeEscape(char)).join('')}, pair ${pair}`;
    assert.equal(hideSecret(text, pair), `bad id ${secretHint(ak)}, secret ${secretHint(sk)}, pair ${secretHint(pair)}`);
  });
});

test('the same secret with another hint is written with that hint (a compiled matcher is shared only by equal secrets and hints)', () => {
  const secret = 'sk-cache-check-0123456789abcdef';
  const text = new TextEncoder().encode(`key ${secret} end`);
  const plain = new TextDecoder().decode(scrubWhole(text, [{ secret, hint: 'HINT-A' }]));
  const other = new TextDecoder().decode(scrubWhole(text, [{ secret, hint: 'HINT-B' }]));
  assert.equal(plain, 'key HINT-A end');
  assert.equal(other, 'key HINT-B end');
});

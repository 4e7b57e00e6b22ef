// Unit tests of a kept stream's answer packed for the journal from its template: for real kept streams (every protocol and variant, random identities of every length) and for random texts with identities anywhere, what the template gives is the very text packJournalText gives (short lines packed too: keptPack), or nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SimulatedChat } from '../../../electron/gateway/providers/simulate/chat.ts';
import { openaiChatCodec } from '../../../electron/gateway/protocols/openai/inbound/chat-codec.ts';
import { chatCompletionChunksKept, type CompletionMeta } from '../../../electron/gateway/protocols/openai/inbound/chat-response.ts';
import { WrittenBytes } from '../../../electron/gateway/protocols/named-event.ts';
import { anthropicCodec } from '../../../electron/gateway/protocols/anthropic/inbound/codec.ts';
import { anthropicStreamEventsKept } from '../../../electron/gateway/protocols/anthropic/inbound/stream.ts';
import { geminiCodec } from '../../../electron/gateway/protocols/gemini/inbound/codec.ts';
import { toGenerateContentSseKept } from '../../../electron/gateway/protocols/gemini/inbound/response.ts';
import { openaiCompletionsCodec } from '../../../electron/gateway/protocols/openai/inbound/completions-codec.ts';
import { textCompletionChunksKept } from '../../../electron/gateway/protocols/openai/inbound/completions.ts';
import type { KeptSpans } from '../../../electron/gateway/protocols/neutral/kept-stream.ts';
import { JOURNAL_KEPT_TEMPLATES, keptPack, KeptPacks } from '../../../electron/gateway/storage/journal-kept-packs.ts';
import { packJournalText, unpackJournalText } from '../../../electron/gateway/storage/journal-pack.ts';
import { JournalRepo } from '../../../electron/gateway/storage/journal-repo.ts';
import { KeptSlots } from '../../../electron/gateway/storage/journal-kept-slots.ts';
import { decodedJournalAnswer, journalRowsOf, referKeptAnswers } from '../../../electron/gateway/storage/journal-row.ts';
import { openJournalStore } from '../../../electron/gateway/storage/journal-store.ts';
import { chatBody } from '../../../bench/lib/fixtures.ts';
import { tempDirs } from '../../helpers/gateway.ts';
import { journalRecord } from '../../helpers/journal.ts';
import { LEGACY_FUNCTIONS_BODY, TOOL_CALLS_BODY, user } from '../../helpers/chat-variants.ts';

/** The bench's stream (12 KB, 42 events) and bodies whose streams differ in every way the bytes can. */
const BODIES: Record<string, Record<string, unknown>> = {
  bench: chatBody(true) as Record<string, unknown>,
  plain: { model: 'gpt-4o-mini', messages: user('Tell me about lighthouses on rocky coasts.'), stream: true },
  'tool calls': { ...TOOL_CALLS_BODY, stream: true },
  'legacy functions': { ...LEGACY_FUNCTIONS_BODY, stream: true },
  'n=3': {
    model: 'gpt-4o-mini',
    messages: user('Name a colour.'),
    n: 3,
    max_tokens: 60,
    stream: true,
    stream_options: { include_usage: true },
  },
  'non-ASCII': { model: 'sim-echo', messages: user('Grüße aus Zürich: 東京の灯台 🌊, «ñandú» — déjà vu. '.repeat(12)), stream: true },
};

const chat = new SimulatedChat();

const CALL = { headers: {}, signal: new AbortController().signal } as unknown as Parameters<SimulatedChat['stream']>[1];

/** A call of `body` for `meta` as the gateway streams a kept answer: the bytes written (the render with `meta`'s identity) and their mark; undefined when not written so. */
async function keptCall(body: Record<string, unknown>, meta: CompletionMeta) {
  const parsed = openaiChatCodec.parse(body);
  const stream = await chat.stream(parsed.chat, CALL);
  const includeUsage = (body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true;
  return writtenOnce(
    chatCompletionChunksKept(stream.keptAtHand!, meta, includeUsage, { legacyFunctions: body['functions'] !== undefined }),
  );
}

/** The one write of a kept render's single span (`frames`), and its mark; undefined when the stream is not written so. */
function writtenOnce(frames: Iterable<unknown> | undefined) {
  if (frames === undefined) return undefined;
  const written = [...frames].filter((item): item is WrittenBytes => item instanceof WrittenBytes);
  assert.equal(written.length, 1, 'one span, one write');
  const bytes = written[0]!.bytes;
  const mark = written[0]!.kept;
  assert.ok(mark !== undefined, 'the render says which it is');
  assert.equal(bytes.length, bytes.buffer.byteLength, 'the whole of its storage');
  return { bytes: new Uint8Array(bytes), mark };
}

/**
 * What the journal thread stores for one answer: from the template when it gives one (`fast`), else decoded, packed and
 * learned; with the text a template must give (`expected`: packJournalText's, short lines packed too), which reads back
 * as the answer's text.
 */
function stored(packs: KeptPacks, id: number, identity: string, bytes: Uint8Array) {
  const text = decodedJournalAnswer(bytes);
  const expected = keptPack(text);
  const packed = packJournalText(text);
  if (packed !== null) assert.equal(expected, packed, 'lines long enough to pack: the same text either way');
  if (expected !== null) assert.equal(unpackJournalText(expected), text);
  const fast = packs.partsOf(id, identity, bytes)?.join(identity);
  if (fast === undefined) packs.learn(id, identity, bytes, text, packed);
  return { fast, expected };
}

const IDENTITY_UNITS = ['a', 'Z', '7', '-', '_', '"', '\\', 'é', '東', '😀', ' ', '{', '[', ':', ',', '\n', '\u0001'];
/** Texts of those units: now and then a line break or a surrogate pair (no template for those), mostly not. */
const units = (maxLength: number) =>
  fc
    .oneof(
      {
        arbitrary: fc.array(fc.constantFrom(...IDENTITY_UNITS.filter((unit) => unit !== '\n' && unit !== '😀')), { maxLength }),
        weight: 6,
      },
      { arbitrary: fc.array(fc.constantFrom(...IDENTITY_UNITS), { maxLength }), weight: 1 },
    )
    .map((parts) => parts.join(''));
const metas = fc.record({
  id: units(40).map((tail) => `chatcmpl-${tail}`),
  created: fc.oneof(fc.nat(99), fc.nat(2_000_000_000)),
  model: fc.oneof(fc.constantFrom('gpt-4o-mini', 'bench-model', 'sim-echo'), units(30)),
});

/** Ids' tails as a call's are made (letters and digits). */
const ids = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
  minLength: 40,
  maxLength: 40,
});
/** `id` with each of its letters and digits replaced by the next of `tail`'s: another id of the same lengths (in UTF-16 units and UTF-8 bytes). */
const sameLength = (id: string, tail: string) => {
  let next = 0;
  return id.replace(/[a-zA-Z0-9]/g, () => tail[next++ % tail.length]!);
};

test('a real kept stream packed from its template is the very text packJournalText gives, for every variant and random identities', async () => {
  let fast = 0;
  let calls = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(BODIES)),
      metas,
      fc.array(fc.oneof({ arbitrary: ids, weight: 4 }, { arbitrary: metas, weight: 1 }), { minLength: 3, maxLength: 10 }),
      async (name, base, others) => {
        // A journal thread of its own per run: a stream's template is made once, for the lengths of its second answer.
        const packs = new KeptPacks();
        // Calls of the base identity's lengths (another id of the same length), and of other lengths.
        const called = [base, ...others.map((other) => (typeof other === 'string' ? { ...base, id: sameLength(base.id, other) } : other))];
        for (const meta of called) {
          const kept = await keptCall(BODIES[name]!, meta);
          if (kept === undefined) continue;
          const { fast: made, expected } = stored(packs, kept.mark.id, kept.mark.identity, kept.bytes);
          // Calls a template may answer: a stream stored packed, an identity with no line break or surrogate.
          if (expected !== null && !/[\n\ud800-\udfff]/.test(kept.mark.identity)) calls++;
          if (made === undefined) continue;
          fast++;
          assert.equal(made, expected, `${name}: ${JSON.stringify(meta)}`);
        }
      },
    ),
    { numRuns: 300 },
  );
  // The bench's stream, one identity length, as the bench calls it: its template made at the second call, trusted at the
  // third, and from the fourth call on every answer from it.
  // A journal thread of its own: above, the same stream was seen with identities of other lengths (a template is made once per stream).
  const benchPacks = new KeptPacks();
  const bench: (string | undefined)[] = [];
  for (let call = 0; call < 20; call++) {
    const meta = { id: `chatcmpl-${String(call).padStart(24, '0')}`, created: 1_764_230_000 + call, model: 'bench-model' };
    const kept = (await keptCall(BODIES['bench']!, meta))!;
    const { fast: made, expected } = stored(benchPacks, kept.mark.id, kept.mark.identity, kept.bytes);
    assert.notEqual(expected, null, 'the bench stream is stored packed');
    if (made !== undefined) assert.equal(made, expected);
    bench.push(made);
  }
  assert.ok(
    bench.slice(3).every((made) => made !== undefined),
    'trusted after a second identity agreed',
  );
  // A template answers from a stream's fourth answer on, when its second, third and later ones are of one length.
  assert.ok(fast > calls / 5, `the template answered ${fast} of ${calls} calls`);
});

/** A character that stands for the identity in a random text (replaced by each identity in turn). */
const HOLE = '\u{10ffff}';
/**
 * Pieces of random lines: characters identities are made of too (so a line's match with another may end at an
 * identity's character), the pack's mark and separators, surrogate pairs, a carriage return, and the hole (in the line
 * every line is made from, so at the same place in most, and among what is inserted, so elsewhere in some).
 */
const PIECES = ['data: ', '{"x":', 'abc', 'a', 'b', '{', '[', '1', ',', '\u0001', '😀', '\r', 'é', HOLE, HOLE, HOLE];
/** Identities' characters: mostly ones of one byte found in the lines, now and then one of two bytes, a surrogate pair or a line break (no template for those). */
const identityChar = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', '{', '[', '1', ',', '"', 'x'), weight: 30 },
  { arbitrary: fc.constantFrom('é', '😀', '\n'), weight: 1 },
);

/**
 * The kept streams of the other protocols written as renders, a kept call of each for an identity: Anthropic Messages
 * (short lines, stored as they are but from a template), Gemini's `alt=sse` and legacy completions.
 */
const OTHER_PROTOCOLS: Record<string, { kept(identity: { id: string; model: string }): Promise<ReturnType<typeof writtenOnce>> }> = {
  anthropic: {
    async kept({ id, model }) {
      const body = { model: 'sim-chat', max_tokens: 1024, messages: user('Say something short.') };
      const parsed = anthropicCodec.parse(body);
      const stream = await chat.stream(parsed.chat, CALL);
      return writtenOnce(anthropicStreamEventsKept(stream.keptAtHand!, { id, model, inputTokens: 12 }));
    },
  },
  gemini: {
    async kept({ id, model }) {
      const body = { contents: [{ role: 'user', parts: [{ text: 'Tell me about lighthouses on rocky coasts.' }] }] };
      const stream = await chat.stream(geminiCodec.parse({ body, model: 'gemini-2.5-flash' }), CALL);
      return writtenOnce(toGenerateContentSseKept(stream.keptAtHand!, { model, responseId: id }));
    },
  },
  completions: {
    async kept({ id, model }) {
      const parsed = openaiCompletionsCodec.parse({
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Tell me about lighthouses.',
        max_tokens: 80,
      });
      const stream = await chat.stream(parsed.requests[0]!, CALL);
      return writtenOnce(textCompletionChunksKept(stream.keptAtHand as KeptSpans, parsed, { id, created: 1_764_230_000, model }));
    },
  },
};

test("Anthropic's, Gemini's and legacy completions' kept streams pack from their templates to the very text packJournalText gives (Anthropic's short lines too), from the fourth answer on", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(OTHER_PROTOCOLS)),
      fc.record({ id: units(40), model: fc.oneof(fc.constantFrom('gemini-2.5-flash', 'sim-echo'), units(30)) }),
      fc.array(ids, { minLength: 3, maxLength: 6 }),
      async (name, base, others) => {
        const packs = new KeptPacks();
        for (const identity of [base, ...others.map((other) => ({ ...base, id: sameLength(base.id, other) }))]) {
          const kept = await OTHER_PROTOCOLS[name]!.kept(identity);
          assert.ok(kept, `${name}: written as its render`);
          const { fast: made, expected } = stored(packs, kept.mark.id, kept.mark.identity, kept.bytes);
          if (made !== undefined) assert.equal(made, expected, `${name}: ${JSON.stringify(identity)}`);
        }
      },
    ),
    { numRuns: 100 },
  );
  for (const name of Object.keys(OTHER_PROTOCOLS)) {
    const packs = new KeptPacks();
    const made: (string | undefined)[] = [];
    for (let call = 0; call < 10; call++) {
      const kept = (await OTHER_PROTOCOLS[name]!.kept({ id: `resp-${String(call).padStart(22, '0')}`, model: 'bench-model' }))!;
      const row = stored(packs, kept.mark.id, kept.mark.identity, kept.bytes);
      assert.notEqual(row.expected, null, `${name}: the stream is stored packed`);
      if (row.fast !== undefined) assert.equal(row.fast, row.expected);
      made.push(row.fast);
    }
    assert.ok(
      made.slice(3).every((text) => text !== undefined),
      `${name}: from the fourth answer on, packed from its template`,
    );
  }
});

test('a random text with identities anywhere (line starts, where lines part, inside shared parts) packs from its template to what packJournalText gives, or not at all', () => {
  let fast = 0;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...PIECES), { minLength: 40, maxLength: 120 }),
      fc.array(fc.record({ cut: fc.nat(), inserted: fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }), empty: fc.boolean() }), {
        minLength: 2,
        maxLength: 40,
      }),
      fc.integer({ min: 1, max: 8 }),
      fc.array(fc.array(identityChar, { minLength: 8, maxLength: 8 }), { minLength: 2, maxLength: 10 }),
      (base, lines, length, identities) => {
        let template = '';
        for (const { cut, inserted, empty } of lines) {
          const at = cut % (base.length + 1);
          template += empty ? '\n' : [...base.slice(0, at), ...inserted, ...base.slice(at), '\n'].join('');
        }
        template = template.repeat(Math.ceil(5000 / template.length));
        const packs = new KeptPacks();
        for (const chars of identities) {
          // Identities of one length in UTF-16 units, mostly (a surrogate pair may be cut in two: no template then).
          const identity = chars.join('').slice(0, length);
          const text = template.replaceAll(HOLE, identity);
          const { fast: made, expected } = stored(packs, 1, identity, Buffer.from(text));
          if (made === undefined) continue;
          fast++;
          assert.equal(made, expected, JSON.stringify({ identity, text: text.slice(0, 200) }));
        }
      },
    ),
    { numRuns: 1000 },
  );
  assert.ok(fast > 0, 'some of them from the template');
});

test('an identity that begins lines is never packed from a template: its first character chooses which line each is packed against', () => {
  // Lines that begin with the identity, between lines that begin with "a": an identity beginning with "a" packs them against each other.
  const line = (index: number) => `${HOLE}${'-'.repeat(150)}${index % 10}\na${'-'.repeat(150)}${index % 7}\n`;
  const template = Array.from({ length: 40 }, (_, index) => line(index)).join('');
  const packs = new KeptPacks();
  for (const identity of ['b-1', 'b-2', 'b-3', 'a-4', 'a-5']) {
    const text = template.replaceAll(HOLE, identity);
    const { fast: made, expected } = stored(packs, 1, identity, Buffer.from(text));
    // Packed against their like, the lines pack; against each other, they do not.
    assert.equal(expected === null, identity.startsWith('a'), identity);
    assert.equal(made, undefined, identity);
  }
});

test(`a stream's first answer makes no template, its second does, and at most ${JOURNAL_KEPT_TEMPLATES} are kept: the one used longest ago is dropped, and not made again`, async () => {
  const packs = new KeptPacks();
  const kept = async (call: number) =>
    (await keptCall(BODIES['bench']!, { id: `chatcmpl-${String(call).padStart(24, '0')}`, created: 1_764_230_000, model: 'bench-model' }))!;
  const answers = [await kept(0), await kept(1), await kept(2), await kept(3)];
  /** Stream `id`'s answer for the `call`th identity: whether its template gave it (always the text packJournalText gives). */
  const fromTemplate = (id: number, call: number) => {
    const answer = answers[call % answers.length]!;
    const { fast, expected } = stored(packs, id, answer.mark.identity, answer.bytes);
    if (fast !== undefined) assert.equal(fast, expected);
    return fast !== undefined;
  };
  // Streams asked once each (most of a test suite's prompts): not one template made.
  for (let id = 1_000; id < 1_000 + 3 * JOURNAL_KEPT_TEMPLATES; id++) fromTemplate(id, 0);
  assert.equal(packs.size, 0, 'a stream seen once makes no template');
  // One stream more than the bound, taking turns: seen, made (the last one made drops the first), trusted, then answered.
  const streams = JOURNAL_KEPT_TEMPLATES + 1;
  const answered: number[] = [];
  for (let round = 0; round < 6; round++) {
    let count = 0;
    for (let id = 1; id <= streams; id++) if (fromTemplate(id, round)) count++;
    answered.push(count);
  }
  assert.deepEqual(answered, [0, 0, 0, streams - 1, streams - 1, streams - 1], 'the streams kept answer from their templates every round');
  assert.equal(packs.size, JOURNAL_KEPT_TEMPLATES);
  assert.equal(fromTemplate(1, 6), false, 'the stream dropped is packed line by line, its template not made again');
  // Stream 2, made first of those kept, is used now; a new stream's template then drops stream 3, used longest ago.
  assert.equal(fromTemplate(2, 6), true);
  fromTemplate(5_000, 0);
  fromTemplate(5_000, 1);
  assert.equal(fromTemplate(2, 7), true, 'the stream used last is kept');
  assert.equal(fromTemplate(3, 7), false, 'the stream used longest ago is dropped');
});

test("the journal's rows carry a kept stream's mark to its template: from the fourth answer on the repository stores them by reference to it, from the fifth without making the answer's bytes, each reading back as written", async () => {
  const dirs = tempDirs();
  const db = openJournalStore(dirs.fresh());
  const how: string[] = [];
  const { partsOf, partsFrom } = KeptPacks.prototype;
  KeptPacks.prototype.partsOf = function (this: KeptPacks, ...args: Parameters<KeptPacks['partsOf']>) {
    const made = partsOf.apply(this, args);
    how.push(made === undefined ? 'packed line by line' : 'template against the bytes');
    return made;
  };
  KeptPacks.prototype.partsFrom = function (this: KeptPacks, ...args: Parameters<KeptPacks['partsFrom']>) {
    const made = partsFrom.apply(this, args);
    if (made !== undefined) how.push('template alone');
    return made;
  };
  try {
    const repo = new JournalRepo(db);
    const slots = new KeptSlots();
    for (let call = 0; call < 6; call++) {
      const meta = { id: `chatcmpl-${String(call).padStart(24, '0')}`, created: 1_764_230_000 + call, model: 'bench-model' };
      const { bytes, mark } = (await keptCall(BODIES['bench']!, meta))!;
      const text = decodedJournalAnswer(bytes);
      // As the capture records a kept render written whole: its mark, no bytes.
      const response = { contentType: 'text/event-stream', bytes: bytes.length, text: null, truncated: false, kept: mark };
      const batch = journalRowsOf([journalRecord({ stream: true, path: '/v1/chat/completions' }, { response })]);
      referKeptAnswers(batch, slots);
      const [id] = repo.insertMany(batch, 100);
      assert.equal(repo.get(id!)?.response.text, text, `answer ${call} reads back as written`);
    }
    assert.deepEqual(how, [
      'packed line by line',
      'packed line by line',
      'packed line by line',
      'template against the bytes',
      'template alone',
      'template alone',
    ]);
    // In the file: the first three answers packed line by line, the last three by reference to one stored template.
    const stored = db.prepare('SELECT response_packed IS NOT NULL AS packed, kept_answer FROM journal ORDER BY id').all();
    assert.deepEqual(
      stored.map((row) => (row as { packed: number }).packed),
      [1, 1, 1, 0, 0, 0],
    );
    const templates = new Set(stored.slice(3).map((row) => (row as { kept_answer: number }).kept_answer));
    assert.equal(templates.size, 1);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM journal_kept_answers').get() as { n: number }).n, 1);
  } finally {
    Object.assign(KeptPacks.prototype, { partsOf, partsFrom });
    db.close();
    dirs.removeAll();
  }
});

test('a template is proved for a layout only when the layout has its holes: another layout of the same render gets its text from the bytes', async () => {
  const packs = new KeptPacks();
  const answers = await Promise.all(
    [0, 1, 2, 3].map(
      async (call) =>
        (await keptCall(BODIES['bench']!, {
          id: `chatcmpl-${String(call).padStart(24, '0')}`,
          created: 1_764_230_000,
          model: 'bench-model',
        }))!,
    ),
  );
  for (const answer of answers.slice(0, 3)) stored(packs, answer.mark.id, answer.mark.identity, answer.bytes);
  const { id, identity, layout } = answers[3]!.mark;
  // The template is trusted now; a layout that is not the bytes' own (its holes elsewhere) is not proved by them.
  const stranger = { ...layout, holes: layout.holes.map((hole) => hole + 1) };
  assert.notEqual(packs.partsOf(id, identity, answers[3]!.bytes, stranger), undefined, 'the bytes fit the template');
  assert.equal(packs.partsFrom(id, identity, stranger), undefined, 'that layout was not proved');
  assert.notEqual(packs.partsOf(id, identity, answers[3]!.bytes, layout), undefined);
  assert.notEqual(packs.partsFrom(id, identity, layout), undefined, 'the bytes’ own layout was');
});

// Unit tests of the one SSE reader: the WHATWG event stream rules (line ends, comments, fields, BOM), any chunking giving the same events and bytes, its caps, and the same reading through Node's Buffer (pooled chunks included) as without it (a browser, or a Buffer polyfill).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { concat, SseReader, type SseEvent, type SseLimits } from '../../../shared/sse-reader.ts';

const encode = (text: string) => new TextEncoder().encode(text);

/**
 * `bytes` read in chunks cut at `cuts`: the events (the one left at the end included) and the overflow. With `pooled`, each
 * chunk is a Node Buffer that many bytes into a larger Buffer filled with CR LF, as a socket's pooled chunks are.
 */
function read(
  bytes: Uint8Array,
  cuts: number[] = [],
  limits?: SseLimits,
  Reader: typeof SseReader = SseReader,
  pooled?: number,
): { events: SseEvent[]; overflow: string | undefined } {
  const reader = new Reader(limits);
  const events: SseEvent[] = [];
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    const chunk = bytes.subarray(at, cut);
    events.push(...reader.push(pooled === undefined ? chunk : inPool(chunk, pooled)));
    at = cut;
  }
  const last = reader.end();
  if (last) events.push(last);
  return { events, overflow: reader.overflow };
}

/** A copy of `chunk` as a Buffer `offset` bytes into a larger one whose other bytes are CR LF. */
function inPool(chunk: Uint8Array, offset: number): Buffer {
  const pool = Buffer.alloc(offset + chunk.length + offset, '\r\n');
  pool.set(chunk, offset);
  return pool.subarray(offset, offset + chunk.length);
}

/** What a browser would dispatch: complete events with data, as type (default message), data and last event id. */
function dispatched(events: SseEvent[]): { type: string; data: string; id: string }[] {
  return events
    .filter((event) => event.complete && event.data !== undefined)
    .map((event) => ({ type: event.type || 'message', data: event.data!, id: event.id }));
}

describe('the event stream rules', () => {
  test('LF, CR and CR LF all end lines, mixed in one stream', () => {
    const { events } = read(encode('data: a\n\ndata: b\r\rdata: c\r\n\r\ndata: d\r\n\n'));
    assert.deepEqual(
      dispatched(events).map((event) => event.data),
      ['a', 'b', 'c', 'd'],
    );
  });

  test('a CR ending one chunk and an LF starting the next are one line end, not two', () => {
    const bytes = encode('data: a\r\ndata: b\r\n\r\n');
    for (let cut = 1; cut < bytes.length; cut += 1) {
      assert.deepEqual(dispatched(read(bytes, [cut]).events), [{ type: 'message', data: 'a\nb', id: '' }], `cut at ${cut}`);
    }
  });

  test('comments are ignored, several data lines join with LF, one space after the colon is dropped', () => {
    const { events } = read(encode(': hello\ndata:one\ndata:  two\n:\ndata\n\n'));
    assert.deepEqual(dispatched(events), [{ type: 'message', data: 'one\n two\n', id: '' }]);
  });

  test('event names the type, id persists to later events (not when it holds a NUL), retry takes digits only', () => {
    const { events } = read(encode('event: add\nid: 7\nretry: 1500\ndata: x\n\ndata: y\nid: 8\0\nretry: 1.5\n\nid\ndata: z\n\n'));
    assert.deepEqual(dispatched(events), [
      { type: 'add', data: 'x', id: '7' },
      { type: 'message', data: 'y', id: '7' },
      { type: 'message', data: 'z', id: '' },
    ]);
    assert.equal(events[0]!.retry, 1500);
    assert.equal(events[1]!.retry, undefined);
  });

  test('a field with no colon is the field name with an empty value; unknown fields are ignored', () => {
    const { events } = read(encode('data\ndata\nfoo: bar\n\nevent\ndata: q\n\n'));
    assert.deepEqual(dispatched(events), [
      { type: 'message', data: '\n', id: '' },
      { type: 'message', data: 'q', id: '' },
    ]);
  });

  test("an event's lines but its data: ones are kept decoded, in order (what a renamed event writes again); a data-only event has none", () => {
    const text = 'event: e\nid: 1\n: c\ndata: x\ndata\nretry: 9\n\ndata: {"y":"é"}\n\n';
    const bytes = encode(text);
    for (let cut = 0; cut < bytes.length; cut += 1) {
      const { events } = read(bytes, [cut]);
      assert.deepEqual(
        events.map((event) => [event.data, [...event.others]]),
        [
          ['x\n', ['event: e', 'id: 1', ': c', 'data', 'retry: 9']],
          ['{"y":"é"}', []],
        ],
        `cut at ${cut}`,
      );
    }
  });

  test('an event without data is not one a browser dispatches, and its type does not leak into the next', () => {
    const { events } = read(encode('event: ping\n\ndata: a\n\n'));
    assert.equal(events[0]!.data, undefined);
    assert.deepEqual(dispatched(events), [{ type: 'message', data: 'a', id: '' }]);
  });

  test('one leading byte order mark is ignored, a second one is not', () => {
    const { events } = read(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('data: a\n\n\uFEFFdata: b\n\n')]));
    assert.deepEqual(
      dispatched(events).map((event) => event.data),
      ['a'],
    );
    for (let cut = 1; cut < 4; cut += 1) {
      const split = read(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('data: a\n\n')]), [cut]);
      assert.deepEqual(dispatched(split.events), [{ type: 'message', data: 'a', id: '' }]);
    }
  });

  test('an event is returned by the chunk that ends it, a bare CR included', () => {
    const reader = new SseReader();
    assert.deepEqual(
      reader.push(encode('data: one\r\r')).map((event) => event.data),
      ['one'],
    );
    assert.equal(reader.holding, false);
    assert.deepEqual(reader.push(encode('data: tw')), []);
    assert.equal(reader.holding, true);
  });

  test('what is left at the end (no blank line) comes back marked incomplete, its last line read without a line end', () => {
    const { events } = read(encode('data: a\n\nevent: e\ndata: b'));
    assert.deepEqual(
      events.map((event) => [event.data, event.type, event.complete]),
      [
        ['a', '', true],
        ['b', 'e', false],
      ],
    );
  });
});

describe('any chunking', () => {
  const line = fc.oneof(
    fc.constantFrom('data: {"a":1}', 'data:x', 'data', ': c', 'event: e', 'id: 1', 'retry: 20', 'é日🎉', '\uFEFF', ''),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  const end = fc.constantFrom('\n', '\r', '\r\n');
  const stream = fc
    .tuple(fc.boolean(), fc.array(fc.tuple(line, end), { maxLength: 30 }), fc.string({ maxLength: 5 }))
    .map(([bom, lines, tail]) => (bom ? '\uFEFF' : '') + lines.map(([text, eol]) => text + eol).join('') + tail);

  test('gives the same events, and the bytes of all events are the stream byte for byte', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat({ max: 200 }), { maxLength: 12 }), (text, cuts) => {
        const bytes = encode(text);
        const whole = read(bytes);
        const chunked = read(bytes, cuts);
        const strip = (events: SseEvent[]) => events.map(({ raw: _raw, ...rest }) => rest);
        assert.deepEqual(strip(chunked.events), strip(whole.events));
        assert.deepEqual(concat(chunked.events.flatMap((event) => event.raw)), bytes);
      }),
      { numRuns: 1000, seed: 25_1 },
    );
  });

  test('matches the rules applied to the whole text at once', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat({ max: 200 }), { maxLength: 12 }), (text, cuts) => {
        assert.deepEqual(dispatched(read(encode(text), cuts).events), reference(text));
      }),
      { numRuns: 1000, seed: 25_2 },
    );
  });
});

describe('caps', () => {
  const limits = { eventBytes: 64, streamBytes: 1024 };

  test('an event over the event cap stops the reader, whatever its chunking, after the events before it', () => {
    const bytes = encode(`data: ok\n\ndata: ${'x'.repeat(100)}`);
    for (const size of [1, 7, 1000]) {
      const cuts = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size);
      const { events, overflow } = read(bytes, cuts, limits);
      assert.equal(overflow, 'event');
      assert.deepEqual(
        events.map((event) => event.data),
        ['ok'],
      );
    }
  });

  test('a line without any line end counts toward the cap as it arrives: nothing more is held', () => {
    const reader = new SseReader(limits);
    for (let i = 0; i < 10 && !reader.overflow; i += 1) reader.push(encode('x'.repeat(20)));
    assert.equal(reader.overflow, 'event');
    assert.deepEqual(reader.push(encode('\n\n')), []);
    assert.equal(reader.end(), undefined);
  });

  test('a stream over the stream cap stops the reader, however small its events', () => {
    const reader = new SseReader(limits);
    let events = 0;
    for (let i = 0; i < 200 && !reader.overflow; i += 1) events += reader.push(encode('data: a\n\n')).length;
    assert.equal(reader.overflow, 'stream');
    assert.equal(events, Math.floor(1024 / 9));
  });
});

describe("Node's Buffer path and the browser's", () => {
  // Under Node the reader searches line ends and decodes with Buffer's own search and UTF-8 slice, in a browser with V8's
  // search and TextDecoder. The path is chosen as the module loads: a second copy, loaded while the globals are changed,
  // takes the other one.
  let browserReader: Promise<typeof SseReader> | undefined;
  const browser = () => (browserReader ??= readerLoadedWith('without-buffer', () => without(globalThis, 'Buffer')));

  // Lines of text, and lines of any bytes: lone surrogates, overlong forms, cut sequences, stray continuation bytes.
  const malformed = fc.array(fc.constantFrom(0xed, 0xa0, 0x80, 0xc0, 0xc1, 0xf4, 0x90, 0xf5, 0xff, 0xe0, 0x9f, 0xef, 0xbb, 0xbf, 0x41), {
    maxLength: 12,
  });
  const line = fc.oneof(
    fc.constantFrom('data: {"a":1}', 'data:x', ': c', 'event: e', 'id: 1', 'é日🎉', '').map(encode),
    fc.string({ unit: 'binary', maxLength: 40 }).map(encode),
    fc.tuple(fc.constantFrom('data: ', 'event: ', ''), malformed).map(([field, bytes]) => concat([encode(field), Uint8Array.from(bytes)])),
    fc.uint8Array({ maxLength: 40 }),
  );
  const stream = fc
    .array(fc.tuple(line, fc.constantFrom('\n', '\r', '\r\n')), { maxLength: 40 })
    .map((lines) => concat(lines.flatMap(([bytes, eol]) => [bytes, encode(eol)])));
  const limits = fc.option(fc.record({ eventBytes: fc.integer({ min: 1, max: 300 }), streamBytes: fc.integer({ min: 1, max: 3000 }) }), {
    nil: undefined,
  });
  const cuts = fc.array(fc.nat({ max: 2000 }), { maxLength: 12 });

  test('without Buffer (the console in a browser): every stream, malformed UTF-8 included, chunked anyhow and with any caps, read as under Node: the same events, bytes and overflow', async () => {
    const Browser = await browser();
    fc.assert(
      fc.property(stream, cuts, limits, (bytes, at, caps) => {
        assert.deepEqual(read(bytes, at, caps, Browser), read(bytes, at, caps));
      }),
      { numRuns: 2000, seed: 25_3 },
    );
  });

  test("chunks that are Node Buffers at an offset in a larger pool, as a socket's are, read as the browser reads them", async () => {
    // Relay's chunks are Buffers: the reader searches and decodes them as they are, by indexes within the view. The pool
    // around each one is full of CR and LF, so a search or a slice that strayed outside the view would find other lines.
    const Browser = await browser();
    fc.assert(
      fc.property(stream, cuts, limits, fc.integer({ min: 1, max: 64 }), (bytes, at, caps, offset) => {
        assert.deepEqual(read(bytes, at, caps, SseReader, offset), read(bytes, at, caps, Browser));
      }),
      { numRuns: 1000, seed: 11_3 },
    );
  });

  test("a global Buffer that is not Node's (a polyfill a browser bundle installs) is not used", async () => {
    let used = 0;
    const polyfill = {
      isBuffer: () => ++used > 0,
      from: () => {
        used++;
        throw new Error('the polyfill was used');
      },
    };
    const Polyfilled = await readerLoadedWith('with-polyfill', () => {
      const undoNode = without(process.versions, 'node');
      const undoBuffer = without(globalThis, 'Buffer');
      Object.defineProperty(globalThis, 'Buffer', { value: polyfill, configurable: true, writable: true });
      return () => {
        undoBuffer();
        undoNode();
      };
    });
    fc.assert(
      fc.property(stream, cuts, limits, (bytes, at, caps) => {
        assert.deepEqual(read(bytes, at, caps, Polyfilled), read(bytes, at, caps));
      }),
      { numRuns: 200, seed: 11_4 },
    );
    assert.equal(used, 0, "the polyfill's isBuffer and from were never called");
  });
});

/** A second copy of the reader module (`copy` names it), loaded while `change` has changed the globals, undone after. */
async function readerLoadedWith(copy: string, change: () => () => void): Promise<typeof SseReader> {
  const undo = change();
  try {
    const url = new URL(`../../../shared/sse-reader.ts?${copy}`, import.meta.url).href;
    return ((await import(url)) as { SseReader: typeof SseReader }).SseReader;
  } finally {
    undo();
  }
}

/** Deletes `name` from `target`; the function returned puts it back as it was. */
function without(target: object, name: string): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(target, name)!;
  Reflect.deleteProperty(target, name);
  return () => Object.defineProperty(target, name, descriptor);
}

/** The specification's steps over the whole decoded text, written plainly (the oracle of the property). */
function reference(text: string): { type: string; data: string; id: string }[] {
  const out: { type: string; data: string; id: string }[] = [];
  let body = new TextDecoder().decode(encode(text));
  if (body.startsWith('\uFEFF')) body = body.slice(1);
  const lines = body.split(/\r\n|\r|\n/);
  lines.pop(); // the part after the last line end is never a whole line
  let type = '';
  let data = '';
  let id = '';
  for (const line of lines) {
    if (line === '') {
      if (data !== '') out.push({ type: type || 'message', data: data.slice(0, -1), id });
      type = '';
      data = '';
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data += `${value}\n`;
    else if (field === 'event') type = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  }
  return out;
}

// Property-based tests (fast-check) of every route's JSON body and of the multipart parser against a real gateway: random and mutated bodies never crash it (no 5xx), every refusal speaks the caller's protocol and changes nothing stored, and /healthz keeps answering.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { encodePng } from '../../electron/gateway/providers/simulate/png.ts';
import { MAX_JSON_DEPTH } from '../../electron/gateway/server/json-depth.ts';
import { protocolOf } from '../../electron/gateway/server/protocol.ts';
import { assertErrorEnvelope, isRefusal } from '../helpers/protocol-errors.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { openRaw } from '../helpers/realtime.ts';

/** Runs per JSON route and per multipart endpoint: the whole file stays well under a minute on a loaded 2-core machine. */
const RUNS = 50;
/** Fixed, so a failure replays; fast-check prints it with the failing body. */
const SEED = 20261123;
/** Tables whose content a refused request must not change (the journal records refusals on purpose). */
const STORED_TABLES = [
  'accounts',
  'tokens',
  'portrait_groups',
  'portrait_assets',
  'usage_records',
  'stored_responses',
  'conversations',
  'tasks3d',
];

type Fields = Record<string, unknown>;

/** A route with a valid body to mutate; `frozen` fields are never changed or removed (they would start work other limits own). */
interface JsonRoute {
  method: 'POST' | 'PUT';
  path: string;
  seed: Fields;
  frozen?: string[];
  admin?: boolean;
}

/** Every JSON route (params filled in `before`), generation sizes kept small: heavy work is another suite's concern. */
function jsonRoutes(groupId: string, assetId: string): JsonRoute[] {
  const chat = { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 };
  const schemaFree = [
    'response_format',
    'tools',
    'tool_choice',
    'functions',
    'text',
    'output_config',
    'generationConfig',
    'n',
    'max_tokens',
    'max_output_tokens',
    'max_completion_tokens',
  ];
  return [
    { method: 'POST', path: '/v1/chat/completions', seed: chat, frozen: schemaFree },
    { method: 'POST', path: '/v1/completions', seed: { model: 'sim-chat', prompt: 'hi', max_tokens: 16 }, frozen: schemaFree },
    { method: 'POST', path: '/v1/embeddings', seed: { model: 'sim-embed', input: ['a', 'b'] }, frozen: ['dimensions'] },
    { method: 'POST', path: '/v1/responses', seed: { model: 'sim-chat', input: 'hi', max_output_tokens: 16 }, frozen: schemaFree },
    { method: 'POST', path: '/v1/conversations', seed: { metadata: { topic: 'fuzz' }, items: [{ role: 'user', content: 'hi' }] } },
    {
      method: 'POST',
      path: '/v1/messages',
      seed: { model: 'sim-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
      frozen: schemaFree,
    },
    {
      method: 'POST',
      path: '/v1/messages/count_tokens',
      seed: { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] },
      frozen: schemaFree,
    },
    {
      method: 'POST',
      path: '/v1beta/models/sim-chat:generateContent',
      seed: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 16 } },
      frozen: [...schemaFree, 'tools'],
    },
    {
      method: 'POST',
      path: '/v1beta/models/sim-chat:streamGenerateContent',
      seed: { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 16 } },
      frozen: schemaFree,
    },
    { method: 'POST', path: '/v1beta/models/sim-chat:countTokens', seed: { contents: [{ parts: [{ text: 'hi' }] }] } },
    {
      method: 'POST',
      path: '/v1/models/sim-chat:generateContent',
      seed: { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 16 } },
      frozen: schemaFree,
    },
    { method: 'POST', path: '/v1/rerank', seed: { model: 'sim-rerank', query: 'cat', documents: ['a cat', 'a dog'] } },
    { method: 'POST', path: '/v2/rerank', seed: { model: 'sim-rerank', query: 'cat', documents: ['a cat', 'a dog'] } },
    {
      method: 'POST',
      path: '/v1/images/generations',
      seed: { model: 'sim-image', prompt: 'a cat', size: '64x64', n: 1 },
      frozen: ['size', 'n'],
    },
    { method: 'POST', path: '/v1/audio/speech', seed: { model: 'sim-tts', input: 'hi', voice: 'alloy' }, frozen: ['input', 'speed'] },
    { method: 'POST', path: '/v1/3d/generations', seed: { model: 'sim-3d', prompt: 'a cube' } },
    { method: 'POST', path: '/v1/portrait/groups', seed: { name: 'fuzz group', description: 'd' } },
    { method: 'PUT', path: `/v1/portrait/groups/${groupId}`, seed: { name: 'fuzz group', description: 'd' } },
    {
      method: 'POST',
      path: '/v1/portrait/assets',
      seed: { group_id: groupId, url: 'https://example.com/a.png', asset_type: 'Image', name: 'a' },
    },
    { method: 'PUT', path: `/v1/portrait/assets/${assetId}`, seed: { name: 'b' } },
    { method: 'POST', path: '/admin/api/accounts/local/groups', seed: { name: 'admin group' }, admin: true },
    { method: 'PUT', path: `/admin/api/accounts/local/groups/${groupId}`, seed: { name: 'admin group' }, admin: true },
    {
      method: 'POST',
      path: '/admin/api/accounts/local/assets',
      seed: { group_id: groupId, url: 'https://example.com/b.png', asset_type: 'Image' },
      admin: true,
    },
    { method: 'POST', path: '/admin/api/tokens', seed: { account: 'fuzz', name: 't' }, admin: true },
    {
      method: 'PUT',
      path: '/admin/api/settings',
      seed: { refreshIntervalMs: 3_600_000 },
      admin: true,
      frozen: ['port', 'tlsPort', 'host', 'dataDir'],
    },
  ];
}

/** Any JSON value of a modest size, with the edge cases validators meet. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'null',
    '-1',
    'NaN',
    '1e309',
    '__proto__',
    0,
    -1,
    1.5,
    2 ** 53,
    -(2 ** 31),
    1e300,
    true,
    null,
    [],
    {},
    [null],
    { '': null },
  ),
  fc.string({ maxLength: 300 }),
);

/** A body nested `depth` levels (within the limit) with `leaf` at the bottom. */
const nestedText = (depth: number, opener: string, leaf: string) =>
  `${opener.repeat(depth)}${leaf}${(opener === '[' ? ']' : '}').repeat(depth)}`;

/** Random and mutated versions of a route's valid body, as the text sent. */
function mutatedBody(route: JsonRoute): fc.Arbitrary<string> {
  const seedText = JSON.stringify(route.seed);
  const keys = Object.keys(route.seed).filter((key) => !route.frozen?.includes(key));
  const mutable = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('x_extra');
  const withField = (key: string, text: string) => {
    const marker = '"__fuzz_marker__"';
    return JSON.stringify({ ...route.seed, [key]: '__fuzz_marker__' }).replace(marker, text);
  };
  return fc.oneof(
    // One field of the wrong type or value.
    fc.tuple(mutable, anyValue).map(([key, value]) => JSON.stringify({ ...route.seed, [key]: value })),
    // One field missing.
    mutable.map((key) => JSON.stringify(Object.fromEntries(Object.entries(route.seed).filter(([name]) => name !== key)))),
    // Unknown fields beside the real ones (prefixed, so they never name a real option).
    fc
      .dictionary(
        fc.string({ maxLength: 8 }).map((key) => `x_${key}`),
        anyValue,
        { maxKeys: 5 },
      )
      .map((extra) => JSON.stringify({ ...extra, ...route.seed })),
    // Deep nesting, up to the limit, in one field.
    fc
      .tuple(
        mutable,
        fc.integer({ min: 1, max: MAX_JSON_DEPTH - 1 }),
        fc.constantFrom('[', '{"a":'),
        fc.constantFrom('0', '"x"', 'null', '{}'),
      )
      .map(([key, depth, opener, leaf]) => withField(key, nestedText(depth, opener, leaf))),
    // Past the limit: refused at parse time.
    fc
      .tuple(mutable, fc.oneof(fc.integer({ min: MAX_JSON_DEPTH, max: MAX_JSON_DEPTH + 8 }), fc.constantFrom(5_000, 20_000, 100_000)))
      .map(([key, depth]) => withField(key, nestedText(depth, '[', '0'))),
    // Wide: many items in one field.
    fc
      .tuple(mutable, fc.integer({ min: 100, max: 20_000 }))
      .map(([key, count]) => withField(key, `[${Array.from({ length: count }, () => '0').join(',')}]`)),
    // Truncated, or with a byte flipped.
    fc.integer({ min: 0, max: seedText.length - 1 }).map((end) => seedText.slice(0, end)),
    fc
      .tuple(fc.integer({ min: 0, max: seedText.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }))
      .map(([at, char]) => seedText.slice(0, at) + char + seedText.slice(at + 1)),
    // Not an object at all, or not JSON.
    anyValue.map((value) => JSON.stringify(value) ?? 'null'),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  );
}

/** Valid client events of a realtime session (no tools: schema-driven work is another suite's concern). */
const REALTIME_SEEDS: Fields[] = [
  { type: 'session.update', session: { type: 'realtime', instructions: 'be brief', output_modalities: ['text'] } },
  { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } },
  { type: 'conversation.item.retrieve', item_id: 'item_x' },
  { type: 'conversation.item.delete', item_id: 'item_x' },
  { type: 'conversation.item.truncate', item_id: 'item_x', content_index: 0, audio_end_ms: 10 },
  { type: 'input_audio_buffer.append', audio: Buffer.alloc(480).toString('base64') },
  { type: 'input_audio_buffer.commit' },
  { type: 'input_audio_buffer.clear' },
  { type: 'output_audio_buffer.clear' },
  { type: 'response.create', response: { output_modalities: ['text'], max_output_tokens: 16 } },
  { type: 'response.cancel' },
];

/** Random and mutated realtime client events, as the text sent. */
const realtimeEvent: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...REALTIME_SEEDS).map((event) => JSON.stringify(event)),
  fc
    .tuple(
      fc.constantFrom(...REALTIME_SEEDS),
      fc.constantFrom('item', 'item_id', 'audio', 'content_index', 'audio_end_ms', 'event_id', 'previous_item_id', 'response_id'),
      anyValue,
    )
    .map(([event, key, value]) => JSON.stringify({ ...event, [key]: value })),
  fc.tuple(fc.constantFrom(...REALTIME_SEEDS), anyValue).map(([event, value]) =>
    JSON.stringify({
      ...event,
      ...(typeof event['session'] === 'object' ? { session: { type: 'realtime', instructions: value } } : { type: value }),
    }),
  ),
  fc
    .tuple(fc.integer({ min: 1, max: MAX_JSON_DEPTH + 20 }), fc.constantFrom('[', '{"a":'))
    .map(([depth, opener]) => `{"type":"conversation.item.create","item":${nestedText(depth, opener, '0')}}`),
  anyValue.map((value) => JSON.stringify(value) ?? 'null'),
  fc.string({ maxLength: 200 }),
);

describe('fuzzed request bodies', () => {
  let server: TestGateway;
  let groupId = '';
  let assetId = '';
  // The gateway runs in this process: an exception escaping a listener would exit a real one.
  const escaped: unknown[] = [];
  const onEscaped = (error: unknown) => escaped.push(error);
  const checksum = () => {
    const hash = createHash('sha256');
    for (const table of STORED_TABLES)
      hash.update(JSON.stringify(server.gateway.context.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()));
    return hash.digest('hex');
  };

  /** Sends one body, then checks the answer and the store: the property every route must keep. */
  const sendAndCheck = async (
    method: string,
    path: string,
    token: string,
    contentType: string,
    body: string | Buffer | undefined,
    label: string,
  ) => {
    const before = checksum();
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': contentType }) },
      ...(body !== undefined && { body }),
    });
    const text = await response.text();
    const shown = `${label} ${method} ${path}: ${response.status} ${text.slice(0, 300)}`;
    assert.ok(response.status < 500, shown);
    const protocol = protocolOf(path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isRefusal(protocol, response.status, parsed)) {
      assertErrorEnvelope(protocol, response.status, parsed, shown);
      assert.equal(checksum(), before, `${shown}: a refused request changed what is stored`);
    }
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200, `${shown}: /healthz after`);
    assert.deepEqual(escaped, [], `${shown}: an exception escaped to the process`);
  };

  before(async () => {
    process.on('uncaughtException', onEscaped);
    // Slow background work, so the store changes only by the requests sent.
    server = await startGateway({ refreshIntervalMs: 3_600_000, simReviewMs: 3_600_000, sim3dMs: 3_600_000 });
    const group = await request(`${server.url}/v1/portrait/groups`, 'POST', { token: server.token, body: { name: 'fuzz' } });
    groupId = group.body.data.group_id;
    const asset = await request(`${server.url}/v1/portrait/assets`, 'POST', {
      token: server.token,
      body: { group_id: groupId, url: 'https://example.com/x.png', asset_type: 'Image' },
    });
    assetId = asset.body.data.asset_id;
  });
  after(async () => {
    process.off('uncaughtException', onEscaped);
    await server.stop();
  });

  test("every JSON route: no 5xx, refusals in the caller's protocol, nothing stored by a refusal, /healthz answering", async () => {
    for (const route of jsonRoutes(groupId, assetId)) {
      const token = route.admin ? server.gateway.adminToken : server.token;
      await fc.assert(
        fc.asyncProperty(
          mutatedBody(route),
          fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
          async (body, contentType) => {
            await sendAndCheck(route.method, route.path, token, contentType, body, 'json');
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });

  test("every GET and DELETE route: random query strings and path ids, bad percent-encodings included, are answered below 500 in the caller's protocol", async () => {
    const paths = [
      ['GET', '/v1/models'],
      ['GET', '/v1/models/{id}'],
      ['GET', '/v1beta/models'],
      ['GET', '/v1beta/models/{id}'],
      ['GET', '/v1/responses/{id}'],
      ['DELETE', '/v1/responses/{id}'],
      ['GET', '/v1/conversations/{id}'],
      ['DELETE', '/v1/conversations/{id}'],
      ['GET', '/v1/conversations/{id}/items'],
      ['GET', '/v1/conversations/{id}/items/msg_x'],
      ['GET', '/v1/3d/generations/{id}'],
      ['GET', '/v1/portrait/groups'],
      ['GET', '/v1/portrait/assets'],
      ['GET', '/v1/portrait/assets/{id}'],
      ['GET', '/admin/api/journal'],
      ['GET', '/admin/api/journal/{id}'],
      ['GET', '/admin/api/accounts/{id}/groups'],
      ['GET', '/admin/api/accounts/{id}/assets'],
      ['GET', '/admin/api/tokens'],
    ] as const;
    const piece = fc.oneof(
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.constantFrom('%', '%E0%A4%A', '%zz', '%00', '..', '%2F', 'a'.repeat(300), '-1', '0', '1e9', 'local'),
    );
    const query = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'p',
            'page_size',
            'group_id',
            'status',
            'asset_type',
            'outcome',
            'protocol',
            'model',
            'account',
            'path',
            'key',
            'x',
          ),
          piece,
        ),
        { maxLength: 4 },
      )
      .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), piece, query, async ([method, template], id, search) => {
        const path = `${template.replace('{id}', id === '' ? 'x' : id)}${search === '' ? '' : `?${search}`}`;
        const token = path.startsWith('/admin/') ? server.gateway.adminToken : server.token;
        await sendAndCheck(method, path, token, 'application/json', undefined, 'query');
      }),
      { numRuns: RUNS * 4, seed: SEED, endOnFailure: true },
    );
  });

  test('realtime client events: every problem is an invalid_request_error event, never a server_error; the socket stays open', async () => {
    const client = await openRaw(`${server.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    try {
      await client.next('session.created');
      await fc.assert(
        fc.asyncProperty(fc.array(realtimeEvent, { minLength: 1, maxLength: 5 }), async (events) => {
          const from = client.events.length;
          for (const event of events) client.send(event);
          // A marker answered in order: every event before it has been handled.
          client.send({ type: 'conversation.item.retrieve', item_id: 'marker' });
          await client.next(
            (event) => event.type === 'error' && event.error?.param === 'item_id' && /marker/.test(event.error.message),
            from,
          );
          const failures = client.events
            .slice(from)
            .filter((event) => event.type === 'error' && event.error?.type !== 'invalid_request_error');
          assert.deepEqual(failures, [], `after ${events.join(' | ').slice(0, 500)}`);
          assert.equal(client.socket.readyState, client.socket.OPEN);
          assert.deepEqual(escaped, []);
        }),
        { numRuns: RUNS * 2, seed: SEED, endOnFailure: true },
      );
    } finally {
      client.socket.close();
    }
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });

  test('every multipart endpoint: random boundaries, parts and cuts never give a 5xx; refusals store nothing', async () => {
    const png = encodePng({ width: 16, height: 16, rgba: new Uint8Array(16 * 16 * 4).fill(200) });
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(40)]);
    const bchar = fc.constantFrom(..."abcXYZ0129'()+_,-./:=? ");
    const boundary = fc.oneof(fc.string({ unit: bchar, minLength: 1, maxLength: 70 }), fc.string({ maxLength: 120 }), fc.constant(''));
    const part = fc.record({
      name: fc.constantFrom(
        'file',
        'image',
        'image[]',
        'mask',
        'model',
        'prompt',
        'n',
        'size',
        'response_format',
        'language',
        'timestamp_granularities[]',
        'stream',
        'x',
      ),
      filename: fc.option(fc.constantFrom('a.png', 'a.wav', '', 'x"y', '../../etc/passwd'), { nil: undefined }),
      content: fc.oneof(
        fc.constant(png),
        fc.constant(wav),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
        fc
          .constantFrom('1', '10', '11', '-1', 'abc', '64x64', 'auto', 'json', 'text', 'srt', 'word', 'true', 'sim-image', 'sim-whisper')
          .map((text) => Buffer.from(text)),
      ),
      headerCut: fc.boolean(),
    });
    const form = fc.record({
      boundary,
      declared: fc.oneof(fc.constant(undefined), boundary),
      parts: fc.array(part, { maxLength: 5 }),
      cut: fc.option(fc.nat(), { nil: undefined }),
      closed: fc.boolean(),
    });
    for (const path of ['/v1/images/edits', '/v1/audio/transcriptions', '/v1/audio/translations']) {
      await fc.assert(
        fc.asyncProperty(form, async ({ boundary: used, declared, parts, cut, closed }) => {
          const chunks: Buffer[] = [];
          for (const { name, filename, content, headerCut } of parts) {
            const disposition = `Content-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
            chunks.push(
              Buffer.from(`--${used}\r\n${headerCut ? disposition.slice(0, 20) : `${disposition}\r\n\r\n`}`),
              content,
              Buffer.from('\r\n'),
            );
          }
          if (closed) chunks.push(Buffer.from(`--${used}--\r\n`));
          let body = Buffer.concat(chunks);
          if (cut !== undefined && body.length > 0) body = body.subarray(0, cut % body.length);
          const param = declared ?? used;
          const contentType = `multipart/form-data; boundary=${/[\s;"]/.test(param) ? `"${param}"` : param}`;
          await sendAndCheck('POST', path, server.token, contentType, body, 'multipart');
        }),
        { numRuns: RUNS * 3, seed: SEED, endOnFailure: true },
      );
    }
  });
});

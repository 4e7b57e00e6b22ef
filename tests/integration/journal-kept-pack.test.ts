// Integration test of kept streams journaled through a real gateway (OpenAI chat, Gemini's alt=sse, legacy completions, Anthropic Messages): their answers, packed from the journal thread's templates, are stored as packJournalText packs them and read back (entry, search) byte for byte as the client received them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { packJournalText } from '../../electron/gateway/storage/journal-pack.ts';
import { keptPack } from '../../electron/gateway/storage/journal-kept-packs.ts';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

/** Two variants (the usage chunk or not) of two kept answers, for two models: each streamed several times, each call its own id. */
const CALLS = [
  { model: 'sim-chat', prompt: 'Describe a harbour at dawn, with its boats and gulls.', usage: true },
  { model: 'sim-chat', prompt: 'Describe a harbour at dawn, with its boats and gulls.', usage: false },
  { model: 'sim-echo', prompt: 'Grüße aus Zürich: 東京の灯台, «ñandú» — déjà vu. '.repeat(3), usage: true },
  { model: 'sim-echo', prompt: 'Grüße aus Zürich: 東京の灯台, «ñandú» — déjà vu. '.repeat(3), usage: false },
];
const ROUNDS = 4;

describe('kept streams journaled from the thread’s templates', () => {
  let server: TestGateway;
  before(async () => {
    server = await startGateway();
  });
  after(() => server.stop());

  test('several calls of two variants and two models: stored as packJournalText packs them, each entry and search as received', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
    const admin = (route: string) => request(`${server.url}/admin/api${route}`, 'GET', { token: server.gateway.adminToken });
    const received: string[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const call of CALLS) {
        const response = await client.chat.completions
          .create({
            model: call.model,
            messages: [{ role: 'user', content: call.prompt }],
            stream: true,
            ...(call.usage && { stream_options: { include_usage: true } }),
          })
          .asResponse();
        assert.equal(response.status, 200);
        received.push(await response.text());
      }
    assert.equal(new Set(received).size, received.length, 'each call has its own id');
    const items = await readBackAsReceived(server, 'path=/v1/chat/completions&', received);
    for (const [index, item] of items.entries()) {
      // Found by its own id, which only its answer holds (the search reads the packed text through journal_unpacked).
      const id = /"id":"([^"]+)"/.exec(received[index]!)![1]!;
      const found = (await admin(`/journal?path=/v1/chat/completions&q=${encodeURIComponent(id)}`)).body.items as { id: number }[];
      assert.deepEqual(
        found.map((hit) => hit.id),
        [item.id],
        `entry ${index} found by its id`,
      );
    }
    // What is stored: the very packed text of what was sent, in the real file; from each stream's fourth answer on, by
    // reference to its template.
    storedAsPacked(server, received);
    assert.ok(
      lastRows(server, CALLS.length).every((row) => row.byReference),
      'the last round is stored by reference',
    );
  });

  test("Gemini's alt=sse and legacy completions streams, several calls each: stored as packJournalText packs them, each entry as received", async () => {
    const streamed = async (url: string, body: unknown, headers: Record<string, string>) => {
      const response = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      return response.text();
    };
    const gemini = (model: string) =>
      streamed(
        `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        { contents: [{ role: 'user', parts: [{ text: CALLS[0]!.prompt }] }] },
        { 'x-goog-api-key': server.token },
      );
    const completions = (model: string, usage: boolean) =>
      streamed(
        '/v1/completions',
        { model, prompt: CALLS[2]!.prompt, max_tokens: 60, stream: true, ...(usage && { stream_options: { include_usage: true } }) },
        { authorization: `Bearer ${server.token}` },
      );
    const received: string[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const call of [
        () => gemini('sim-chat'),
        () => gemini('gemini-2.5-flash'),
        () => completions('sim-echo', true),
        () => completions('sim-echo', false),
      ])
        received.push(await call());
    assert.equal(new Set(received).size, received.length, 'each call has its own id');
    await readBackAsReceived(server, '', received);
    storedAsPacked(server, received);
  });

  test('an Anthropic Messages stream: its short lines are stored as they are until its template is trusted, then stored by reference to it, and always read back as received', async () => {
    const received: string[] = [];
    for (let call = 0; call < 6; call++) {
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': server.token, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: 'sim-chat',
          max_tokens: 1024,
          stream: true,
          messages: [{ role: 'user', content: 'Say something short.' }],
        }),
      });
      assert.equal(response.status, 200);
      received.push(await response.text());
    }
    assert.equal(new Set(received).size, received.length, 'each call has its own id');
    assert.equal(packJournalText(received[0]!), null, 'its lines are too short for a line by line pack to pay');
    await readBackAsReceived(server, 'path=/v1/messages&', received);
    // The first answer is noted, the second makes the template, the third trusts it: stored as they are; then packed from it.
    for (const [index, row] of lastRows(server, received.length).entries()) {
      const packed = index >= 3 ? keptPack(received[index]!) : null;
      assert.deepEqual(
        row,
        { response_text: packed === null ? received[index] : null, packed, byReference: packed !== null },
        `answer ${index}`,
      );
      if (packed !== null) assert.ok(packed.length < received[index]!.length / 2, `answer ${index} packed to ${packed.length}`);
    }
  });
});

/**
 * Waits until the journal lists as many entries as `received` (filtered by `query`, ending in `&` when given), then
 * checks each reads back as its answer was received, text and bytes, oldest first; gives the entries.
 */
async function readBackAsReceived(server: TestGateway, query: string, received: readonly string[]) {
  const admin = (route: string) => request(`${server.url}/admin/api${route}`, 'GET', { token: server.gateway.adminToken });
  const items = await eventually(async () => {
    const list = (await admin(`/journal?${query}page_size=${received.length}`)).body.items as { id: number }[];
    return list.length === received.length && list.toReversed();
  }, 'every call is journaled');
  for (const [index, item] of items.entries()) {
    const entry = (await admin(`/journal/${item.id}`)).body;
    assert.equal(entry.response.text, received[index], `entry ${index} reads back as received`);
    assert.equal(entry.response.bytes, Buffer.byteLength(received[index]!));
  }
  return items;
}

/**
 * The answers as the real file's last `count` journal rows store them, oldest first: the text stored as it is, the
 * packed text (its own column's, or a kept answer's template parts joined with the entry's identity), and whether it is
 * stored by reference to a template.
 */
function lastRows(server: TestGateway, count: number) {
  const db = new Database(path.join(server.dataDir, 'journal.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT journal.response_text, journal.response_packed, journal.kept_identity, kept.parts
         FROM journal LEFT JOIN journal_kept_answers AS kept ON kept.id = journal.kept_answer ORDER BY journal.id`,
      )
      .all() as { response_text: string | null; response_packed: string | null; kept_identity: string | null; parts: string | null }[];
    return rows.slice(-count).map((row) => ({
      response_text: row.response_text,
      packed: row.response_packed ?? (row.parts === null ? null : (JSON.parse(row.parts) as string[]).join(row.kept_identity!)),
      byReference: row.parts !== null,
    }));
  } finally {
    db.close();
  }
}

/** The last `received.length` journal rows of the real file: each the very packed text of what was sent, in turn. */
function storedAsPacked(server: TestGateway, received: readonly string[]) {
  for (const [index, row] of lastRows(server, received.length).entries()) {
    const packed = packJournalText(received[index]!);
    assert.notEqual(packed, null, `answer ${index} is stored packed`);
    assert.equal(row.packed, packed, `answer ${index}: the packed text packJournalText gives`);
    assert.equal(row.response_text, null);
  }
}

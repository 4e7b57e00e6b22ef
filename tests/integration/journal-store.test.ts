// Integration tests of the journal's own file: each call's entry is committed in journal.sqlite by the journal thread, read back as soon as the call completed, never lost at stop, reset by test id there, and with the journal off no thread runs and no file is made.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import OpenAI from 'openai';
import { startGatehouse } from 'gatehouse/testing';
import { eventually } from '../helpers/eventually.ts';
import { request, startGateway, tempDirs } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** The rows a data dir's file holds in its `journal` table (none when it has no such table), read on a connection of its own. */
function journalIn(dataDir: string, file: string): { id: number; path: string; test_id: string | null }[] {
  const db = new Database(path.join(dataDir, file), { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").get();
    return table ? (db.prepare('SELECT id, path, test_id FROM journal ORDER BY id').all() as never) : [];
  } finally {
    db.close();
  }
}

const ask = (client: OpenAI, content: string, headers: Record<string, string> = {}) =>
  client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content }] }, { headers });

test('a call’s entry is read back through gatehouse/testing as soon as the call completed, from journal.sqlite (the product database has no journal)', async () => {
  await using gatehouse = await startGatehouse();
  const client = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, maxRetries: 0 });
  await ask(client, 'first');
  const first = await gatehouse.journal.last();
  assert.equal((first?.requestBody as { messages: { content: string }[] }).messages[0]!.content, 'first');
  await ask(client, 'second');
  const second = await gatehouse.journal.last();
  assert.ok(second && first && second.id > first.id, 'the second call is listed right after it completed');
  assert.deepEqual(
    journalIn(gatehouse.dataDir, 'journal.sqlite').map((row) => row.id),
    [first.id, second.id],
    'committed in journal.sqlite before it was shown',
  );
  assert.deepEqual(journalIn(gatehouse.dataDir, 'gatehouse.sqlite'), []);
});

test('stop commits every call recorded before it: nothing is lost when the gateway stops right after its calls', async () => {
  const server = await startGateway({ dataDir: dirs.fresh() });
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
  for (let i = 0; i < 5; i += 1) await ask(client, `call ${i}`);
  await server.stop({ keepData: true });
  assert.equal(existsSync(path.join(server.dataDir, 'journal.sqlite-wal')), false, 'the thread closed the file');
  assert.equal(journalIn(server.dataDir, 'journal.sqlite').filter((row) => row.path === '/v1/chat/completions').length, 5);
});

test('a reset by test id removes that test id’s entries from journal.sqlite, also of a call just answered, and no other', async () => {
  await using gatehouse = await startGatehouse();
  const client = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, maxRetries: 0 });
  const one = gatehouse.forTest('reset-one');
  const two = gatehouse.forTest('reset-two');
  await ask(client, 'a', one.headers);
  await ask(client, 'b', two.headers);
  await ask(client, 'c', one.headers);
  const report = await one.reset();
  assert.equal(report.journal, 2);
  assert.deepEqual(await one.journal.list(), []);
  assert.equal((await two.journal.list()).length, 1);
  assert.deepEqual(
    journalIn(gatehouse.dataDir, 'journal.sqlite').map((row) => row.test_id),
    ['reset-two'],
  );
});

test('with the journal off no journal thread runs and no journal.sqlite is made, also when the journal is read', async () => {
  const server = await startGateway({ dataDir: dirs.fresh(), journal: false });
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
    await ask(client, 'unrecorded');
    const page = await request(`${server.url}/admin/api/journal`, 'GET', { token: server.gateway.adminToken });
    assert.equal(page.body.total, 0);
    assert.equal(server.gateway.context.journalStore.thread, undefined);
    assert.equal(existsSync(path.join(server.dataDir, 'journal.sqlite')), false);
  } finally {
    await server.stop();
  }
});

test('a journal thread that stops unexpectedly is reported, and a later call is recorded by a new one', async () => {
  const server = await startGateway({ dataDir: dirs.fresh() });
  const errors: unknown[] = [];
  server.gateway.events.on('error', (error) => errors.push(error));
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
    const admin = (route: string) => request(`${server.url}/admin/api${route}`, 'GET', { token: server.gateway.adminToken });
    await ask(client, 'before');
    assert.equal((await admin('/journal')).body.total, 1);
    const thread = server.gateway.context.journalStore.thread!;
    await thread.terminate();
    // Calls made while it is down are lost (reported); once another thread runs, calls are recorded again.
    await eventually(async () => {
      await ask(client, 'after', { 'x-gatehouse-test-id': 'after' });
      return (await admin('/journal?test_id=after').catch(() => undefined))?.body?.total > 0;
    }, 'a call recorded after the thread stopped');
    assert.notEqual(server.gateway.context.journalStore.thread, thread);
    assert.ok(
      errors.some((error) => /journal thread stopped/.test(String(error))),
      errors.map(String).join('\n'),
    );
  } finally {
    await server.stop();
  }
});

// Integration tests of a realtime session's size limits: the conversation keeps a bounded number of items and bytes, oversized items, appends and events are refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REALTIME_LIMITS } from '../../electron/gateway/realtime/limits.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { openRaw, type RawClient } from '../helpers/realtime.ts';

const MiB = 1024 * 1024;
const userText = (id: string, text: string) => ({
  type: 'conversation.item.create',
  event_id: `evt_${id}`,
  item: { id, type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
});

describe('realtime session limits', { timeout: 120_000 }, () => {
  let gw: TestGateway;
  let wsUrl: string;
  before(async () => {
    gw = await startGateway();
    wsUrl = `${gw.url.replace('http', 'ws')}/v1/realtime?model=sim-realtime`;
  });
  after(() => gw.stop());

  const open = async (): Promise<RawClient> => {
    const client = await openRaw(wsUrl, { headers: { authorization: `Bearer ${gw.token}` } });
    await client.next('session.created');
    return client;
  };
  /** Whether the session still holds item `id`, asked through `conversation.item.retrieve`. */
  const holds = async (client: RawClient, id: string): Promise<boolean> => {
    const from = client.events.length;
    client.send({ type: 'conversation.item.retrieve', event_id: `get_${id}`, item_id: id });
    const answer = await client.next(
      (e) => e.type === 'conversation.item.retrieved' || (e.type === 'error' && e.error.event_id === `get_${id}`),
      from,
    );
    if (answer.type === 'error') assert.equal(answer.error.code, 'item_not_found');
    return answer.type === 'conversation.item.retrieved';
  };

  test('large items beyond the byte bound push out the oldest, announced as deleted; the newest stay', async () => {
    const client = await open();
    const size = 12 * MiB;
    const count = Math.ceil(REALTIME_LIMITS.conversationBytes / size) + 1;
    for (let i = 0; i < count; i++) {
      client.send(userText(`big${i}`, String(i % 10).repeat(size)));
      await client.next((e) => e.type === 'conversation.item.done' && e.item.id === `big${i}`, 0);
    }
    const kept = [];
    for (let i = 0; i < count; i++) if (await holds(client, `big${i}`)) kept.push(i);
    assert.ok(kept.length * size <= REALTIME_LIMITS.conversationBytes, `kept ${kept.length} items of 12 MiB`);
    assert.deepEqual(
      kept,
      Array.from({ length: kept.length }, (_, i) => count - kept.length + i),
      'the newest items are the ones kept',
    );
    const deleted = client.events.filter((e) => e.type === 'conversation.item.deleted').map((e) => e.item_id);
    assert.deepEqual(
      deleted,
      Array.from({ length: count - kept.length }, (_, i) => `big${i}`),
    );
    client.socket.close();
  });

  test('more items than the count bound keep only the newest ones', async () => {
    const client = await open();
    const count = REALTIME_LIMITS.conversationItems + 5;
    for (let i = 0; i < count; i++) client.send(userText(`it${i}`, `hello ${i}`));
    await client.next((e) => e.type === 'conversation.item.done' && e.item.id === `it${count - 1}`, 0);
    assert.equal(await holds(client, 'it0'), false);
    assert.equal(await holds(client, 'it4'), false);
    assert.equal(await holds(client, 'it5'), true);
    assert.equal(await holds(client, `it${count - 1}`), true);
    assert.equal(client.events.filter((e) => e.type === 'conversation.item.deleted').length, 5);
    client.socket.close();
  });

  test('one item over the item bound gets an error event, is not kept, and the session stays usable', async () => {
    const client = await open();
    client.send(userText('huge', 'x'.repeat(REALTIME_LIMITS.itemBytes + 1)));
    const error = await client.next((e) => e.type === 'error' && e.error.event_id === 'evt_huge', 0);
    assert.deepEqual([error.error.type, error.error.code, error.error.param], ['invalid_request_error', 'item_too_large', 'item']);
    assert.equal(await holds(client, 'huge'), false);
    client.send(userText('small', 'still here'));
    await client.next((e) => e.type === 'conversation.item.done' && e.item.id === 'small', 0);
    client.socket.close();
  });

  test('appends beyond the input buffer bound get an error event and leave the buffer as it was', async () => {
    const client = await open();
    const chunk = Buffer.alloc(10 * MiB).toString('base64');
    client.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: null } } } });
    await client.next('session.updated', 0);
    client.send({ type: 'input_audio_buffer.append', event_id: 'a1', audio: chunk });
    client.send({ type: 'input_audio_buffer.append', event_id: 'a2', audio: chunk });
    const error = await client.next((e) => e.type === 'error' && e.error.event_id === 'a2', 0);
    assert.equal(error.error.code, 'input_audio_buffer_full');
    assert.equal(
      client.events.some((e) => e.type === 'error' && e.error.event_id === 'a1'),
      false,
      'the first append was taken',
    );
    client.send({ type: 'input_audio_buffer.commit' });
    const committed = await client.next('conversation.item.done', 0);
    const from = client.events.length;
    client.send({ type: 'conversation.item.retrieve', item_id: committed.item.id });
    const retrieved = await client.next('conversation.item.retrieved', from);
    assert.equal(Buffer.from(retrieved.item.content[0].audio, 'base64').length, 10 * MiB, 'the buffer held only the first append');
    client.socket.close();
  });

  test('a client event over the event bound closes the socket with 1009; the gateway keeps serving', async () => {
    const client = await open();
    client.send(userText('over', 'x'.repeat(REALTIME_LIMITS.eventBytes)));
    const closed = await client.closing;
    assert.equal(closed.code, 1009);
    const next = await open();
    next.send(userText('after', 'hello'));
    await next.next((e) => e.type === 'conversation.item.done' && e.item.id === 'after', 0);
    next.socket.close();
    assert.equal((await fetch(`${gw.url}/healthz`)).status, 200);
  });
});

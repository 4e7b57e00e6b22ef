// Integration tests of the conversation bounds: bytes per conversation, conversations and bytes per account (least recently changed evicted) and age, through the openai SDK.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { CONVERSATION_ITEMS_PER_CALL } from '../../electron/gateway/services/conversations.ts';
import { STORAGE_LIMITS } from '../../electron/gateway/services/storage-limits.ts';
import { manualClock } from '../helpers/clock.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

const KiB = 1024;
const MODEL = 'gpt-4.1-mini';
const DAY_MS = 24 * 60 * 60 * 1000;

test('the documented defaults: 20 items a call, 8 MiB per conversation, 10 000 and 256 MiB per account, 30 days unchanged', () => {
  assert.deepEqual(
    [
      CONVERSATION_ITEMS_PER_CALL,
      STORAGE_LIMITS.conversationBytes,
      STORAGE_LIMITS.conversationsPerAccount,
      STORAGE_LIMITS.conversationAccountBytes,
      STORAGE_LIMITS.storedMaxAgeMs,
    ],
    [20, 8 * 1024 * KiB, 10_000, 256 * 1024 * KiB, 30 * DAY_MS],
  );
});

describe('conversations within bounds', () => {
  const clock = manualClock();
  const suite = useOpenAIGateway({
    clock,
    storageLimits: { conversationBytes: 16 * KiB, conversationsPerAccount: 3, conversationAccountBytes: 40 * KiB },
  });
  const said = (bytes: number) => ({ type: 'message' as const, role: 'user' as const, content: 'word '.repeat(Math.ceil(bytes / 5)) });
  const refusal = async (attempt: Promise<unknown>) => {
    const error = await attempt.then(
      () => assert.fail('expected a refusal'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof OpenAI.APIError, String(error));
    return error;
  };
  const count = () => (suite.gw.gateway.context.db.prepare('SELECT COUNT(*) AS n FROM conversations').get() as { n: number }).n;

  test('items beyond the conversation bound are a 400, nothing added; a response whose input would not fit is refused before it is made', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create({ items: [said(10 * KiB)] });
    const tooBig = await refusal(client.conversations.items.create(conversation.id, { items: [said(8 * KiB)] }));
    assert.equal(tooBig.status, 400);
    assert.equal(tooBig.param, 'items');
    assert.match(tooBig.message, /too large/);
    const response = await refusal(client.responses.create({ model: MODEL, input: [said(8 * KiB)], conversation: conversation.id }));
    assert.equal(response.status, 400);
    assert.equal(response.param, 'conversation');
    assert.equal((await client.conversations.items.list(conversation.id)).data.length, 1, 'nothing was added');
  });

  test('a new conversation beyond the count evicts the least recently changed; bytes beyond the account bound too', async () => {
    const { client } = suite;
    const made = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      made.push(await client.conversations.create({ metadata: { n: String(i) } }));
    }
    // The first made is changed last, so the second is the least recently changed when a fourth comes.
    clock.advance(1000);
    await client.conversations.items.create(made[0]!.id, { items: [said(100)] });
    clock.advance(1000);
    const fourth = await client.conversations.create();
    assert.equal((await refusal(client.conversations.retrieve(made[1]!.id))).status, 404);
    for (const kept of [made[0]!, made[2]!, fourth]) assert.equal((await client.conversations.retrieve(kept.id)).id, kept.id);
    assert.equal(count(), 3);

    // 3 × 15 KiB exceed 40 KiB: the oldest goes to make room.
    const big = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      big.push(await client.conversations.create({ items: [said(15 * KiB)] }));
    }
    assert.equal((await refusal(client.conversations.retrieve(big[0]!.id))).status, 404);
    assert.equal((await client.conversations.retrieve(big[2]!.id)).id, big[2]!.id);
  });

  test('one Responses turn at a time: calls naming a conversation another call is answering on are refused as the real API does, so the bound holds under 40 at once', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create();
    // Paced at 10 pieces a second, the first call's stream lasts seconds: every other call below starts while it is under way.
    const first = await client.responses.create(
      { model: MODEL, input: [said(10 * KiB)], conversation: conversation.id, stream: true },
      { headers: { 'x-gatehouse-pace': '10' } },
    );
    const events = first[Symbol.asyncIterator]();
    assert.equal((await events.next()).value?.type, 'response.created');
    // 10 KiB more would not fit beside the first turn's 10 KiB (16 KiB a conversation), yet each fits the conversation as it
    // is until the first turn is added: only one turn at a time keeps the bound.
    const others = await Promise.all(
      Array.from({ length: 39 }, () =>
        refusal(client.responses.create({ model: MODEL, input: [said(10 * KiB)], conversation: conversation.id })),
      ),
    );
    for (const error of others) {
      assert.equal(error.status, 400);
      assert.equal(error.param, 'conversation');
      assert.equal(error.code, 'conversation_locked');
      assert.match(error.message, /Another process is currently operating on this conversation/);
    }
    let completed = false;
    for await (const event of { [Symbol.asyncIterator]: () => events }) completed ||= event.type === 'response.completed';
    assert.ok(completed, 'the first call completed');
    const items = (await client.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.deepEqual(
      items.map((item) => item.type === 'message' && item.role),
      ['user', 'assistant'],
      'one turn: its input and its answer',
    );

    // The turn ended with its call: the conversation takes another (a short one still fits), and refuses a long one as too large.
    const next = await client.responses.create({ model: MODEL, input: 'one more', conversation: conversation.id });
    assert.equal(next.status, 'completed');
    const tooLarge = await refusal(client.responses.create({ model: MODEL, input: [said(10 * KiB)], conversation: conversation.id }));
    assert.equal(tooLarge.param, 'conversation');
    assert.match(tooLarge.message, /too large/);
  });

  test('a turn whose client went away ends with its call: the conversation is not left locked', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create();
    const controller = new AbortController();
    const left = await client.responses.create(
      { model: MODEL, input: 'a long answer, please', conversation: conversation.id, stream: true },
      { headers: { 'x-gatehouse-pace': '2' }, signal: controller.signal },
    );
    const events = left[Symbol.asyncIterator]();
    assert.equal((await events.next()).value?.type, 'response.created');
    const locked = await refusal(client.responses.create({ model: MODEL, input: 'meanwhile', conversation: conversation.id }));
    assert.equal(locked.code, 'conversation_locked');
    controller.abort();
    await events.next().catch(() => undefined);
    // The gateway sees the connection close on its own time: asked again until the turn is free (a generous bound).
    const deadline = Date.now() + 30_000;
    for (;;) {
      const outcome = await client.responses.create({ model: MODEL, input: 'after', conversation: conversation.id }).then(
        (response) => ({ response }),
        (error: unknown) => ({ error }),
      );
      if ('response' in outcome) {
        assert.equal(outcome.response.status, 'completed');
        break;
      }
      assert.ok(outcome.error instanceof OpenAI.APIError, String(outcome.error));
      assert.equal(outcome.error.code, 'conversation_locked', String(outcome.error));
      assert.ok(Date.now() < deadline, 'the aborted call still holds the conversation after 30 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Only the finished call's turn was added; the one cut short added nothing.
    const items = (await client.conversations.items.list(conversation.id, { order: 'asc' })).data;
    assert.deepEqual(
      items.map((item) => (item.type === 'message' && item.role === 'user' ? item.content : item.type === 'message' && item.role)),
      [[{ type: 'input_text', text: 'after' }], 'assistant'],
    );
  });

  test('a conversation unchanged for 30 days is gone', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create();
    clock.advance(30 * DAY_MS - 1);
    assert.equal((await client.conversations.retrieve(conversation.id)).id, conversation.id);
    clock.advance(2);
    assert.equal((await refusal(client.conversations.retrieve(conversation.id))).status, 404);
  });
});

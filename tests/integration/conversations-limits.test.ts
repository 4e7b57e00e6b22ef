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

  test('a conversation unchanged for 30 days is gone', async () => {
    const { client } = suite;
    const conversation = await client.conversations.create();
    clock.advance(30 * DAY_MS - 1);
    assert.equal((await client.conversations.retrieve(conversation.id)).id, conversation.id);
    clock.advance(2);
    assert.equal((await refusal(client.conversations.retrieve(conversation.id))).status, 404);
  });
});

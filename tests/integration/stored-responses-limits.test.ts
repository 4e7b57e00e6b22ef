// Integration tests of the stored-response bounds: bytes per response, bytes per account (oldest evicted) and age (30 days), through the openai SDK.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { STORAGE_LIMITS } from '../../electron/gateway/services/storage-limits.ts';
import { manualClock } from '../helpers/clock.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

const KiB = 1024;
const MODEL = 'gpt-4.1-mini';
const DAY_MS = 24 * 60 * 60 * 1000;

test('the documented defaults: 8 MiB per stored response, 256 MiB per account, 30 days', () => {
  assert.deepEqual(
    [STORAGE_LIMITS.storedResponseBytes, STORAGE_LIMITS.storedAccountBytes, STORAGE_LIMITS.storedMaxAgeMs],
    [8 * 1024 * KiB, 256 * 1024 * KiB, 30 * DAY_MS],
  );
});

describe('stored responses within bounds', () => {
  const clock = manualClock();
  const suite = useOpenAIGateway({ clock, storageLimits: { storedResponseBytes: 64 * KiB, storedAccountBytes: 256 * KiB } });
  const db = () => suite.gw.gateway.context.db;
  const rows = () =>
    db().prepare('SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS bytes FROM stored_responses').get() as { n: number; bytes: number };
  const charges = () => (db().prepare("SELECT COUNT(*) AS n FROM usage_records WHERE endpoint = '/v1/responses'").get() as { n: number }).n;
  /** Words adding up to about `bytes` of input text. */
  const text = (bytes: number, tag: string) =>
    Array.from({ length: Math.ceil(bytes / 8) }, (_, i) => `${tag}${i % 1000}`.padEnd(7, 'x')).join(' ');

  test('a response larger than one stored response may be is a 400 naming store; nothing stored or charged; store:false still works', async () => {
    const before = [rows().n, charges()];
    const error = await suite.client.responses.create({ model: MODEL, input: text(100 * KiB, 'big'), store: true }).then(
      () => assert.fail('expected a 400'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal((error.error as { param: string }).param, 'store');
    assert.match(error.message, /too large to store.*store: false/);
    assert.deepEqual([rows().n, charges()], before);
    const unstored = await suite.client.responses.create({ model: MODEL, input: text(100 * KiB, 'big'), store: false });
    assert.equal(unstored.status, 'completed');
    assert.equal(rows().n, before[0]);
  });

  test('metadata beyond the OpenAI rule (16 pairs, keys 64, values 512 characters) is a 400 and stores nothing', async () => {
    const before = rows().n;
    const cases: [Record<string, string>, string][] = [
      [Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])), 'metadata'],
      [{ note: 'x'.repeat(513) }, 'metadata.note'],
      [{ ['k'.repeat(65)]: 'v' }, `metadata.${'k'.repeat(64)}`],
    ];
    for (const [metadata, param] of cases) {
      const error = await suite.client.responses.create({ model: MODEL, input: 'hi', store: true, metadata }).then(
        () => assert.fail('expected a 400'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal((error.error as { param: string }).param, param);
    }
    assert.equal(rows().n, before);
    const kept = await suite.client.responses.create({ model: MODEL, input: 'hi', store: true, metadata: { note: 'x'.repeat(512) } });
    assert.equal((await suite.client.responses.retrieve(kept.id)).metadata?.['note']?.length, 512);
  });

  test("beyond the account's quota the oldest stored responses are evicted; the newest stay retrievable", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push((await suite.client.responses.create({ model: MODEL, input: text(40 * KiB, `t${i}`), store: true })).id);
      clock.advance(1000);
    }
    assert.ok(rows().bytes <= 256 * KiB, `stored ${rows().bytes} bytes`);
    await assert.rejects(suite.client.responses.retrieve(ids[0]!), OpenAI.NotFoundError);
    await assert.rejects(
      suite.client.responses.create({ model: MODEL, previous_response_id: ids[0]!, input: 'and?' }),
      OpenAI.NotFoundError,
    );
    const last = await suite.client.responses.retrieve(ids.at(-1)!);
    assert.equal(last.id, ids.at(-1));
    const kept = [];
    for (const id of ids) {
      const found = await suite.client.responses.retrieve(id).then(
        () => true,
        () => false,
      );
      kept.push(found);
    }
    const firstKept = kept.indexOf(true);
    assert.ok(firstKept > 0 && kept.slice(firstKept).every(Boolean), `evicted from the oldest: ${kept.join(',')}`);
  });

  test('after 30 days a stored response is gone, and the next store deletes it', async () => {
    const old = await suite.client.responses.create({ model: MODEL, input: 'Remember Kyoto.', store: true });
    clock.advance(STORAGE_LIMITS.storedMaxAgeMs + 1);
    await assert.rejects(suite.client.responses.retrieve(old.id), OpenAI.NotFoundError);
    await assert.rejects(
      suite.client.responses.create({ model: MODEL, previous_response_id: old.id, input: 'Which city?' }),
      OpenAI.NotFoundError,
    );
    const fresh = await suite.client.responses.create({ model: MODEL, input: 'New day.', store: true });
    assert.deepEqual(db().prepare('SELECT response_id FROM stored_responses').all(), [{ response_id: fresh.id }]);
  });
});

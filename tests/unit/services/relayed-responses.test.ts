// Unit tests of the relayed-response index: ids found per account, and entries past a stored response's lifetime dropped in bounded batches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RelayedResponses } from '../../../electron/gateway/services/relayed-responses.ts';
import { RelayedResponsesRepo } from '../../../electron/gateway/storage/relayed-responses-repo.ts';
import { manualClock } from '../../helpers/clock.ts';
import { tempDatabase } from '../../helpers/database.ts';

test('an id is found for its account only; entries older than a stored response lives are dropped, a batch at a time', () => {
  const db = tempDatabase();
  const clock = manualClock();
  const index = new RelayedResponses(new RelayedResponsesRepo(db), clock, { storedMaxAgeMs: 1000, pruneBatch: 2 });
  for (const id of ['resp_a', 'resp_b', 'resp_c']) index.remember(1, id, { channelId: 'ch_1', model: 'my-gpt' });
  assert.deepEqual(index.find(1, 'resp_a'), { channelId: 'ch_1', model: 'my-gpt' });
  assert.equal(index.find(2, 'resp_a'), undefined, "another account's id is unknown");

  clock.advance(1001);
  index.remember(1, 'resp_d', { channelId: 'ch_1', model: 'my-gpt' });
  const left = ['resp_a', 'resp_b', 'resp_c'].filter((id) => index.find(1, id) !== undefined);
  assert.equal(left.length, 1, 'one batch of two expired entries went');
  index.remember(1, 'resp_e', { channelId: 'ch_1', model: 'my-gpt' });
  assert.deepEqual(
    ['resp_a', 'resp_b', 'resp_c'].filter((id) => index.find(1, id) !== undefined),
    [],
    'the next write takes the rest',
  );
  assert.ok(index.find(1, 'resp_d') && index.find(1, 'resp_e'), 'young entries stay');
});

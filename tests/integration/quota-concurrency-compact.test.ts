// A token's quota holds for compactions (`POST /v1/responses/compact`) under concurrency, as for every other chat call: forty relayed at once on a quota that holds two reach the upstream two at most, the rest refused with the quota's 403 before anything is sent, and the total charged stays within the quota.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { eventually } from '../helpers/eventually.ts';
import { gatewayBefore, hostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream.ts';
import type { TestGateway } from '../helpers/gateway.ts';
import { quotaToken, spentMicros } from '../helpers/quota.ts';

const CALLS = 40;
let upstream: HostileUpstream;
let gw: TestGateway;
/** Compactions the upstream was asked for. */
let reached = 0;
/** Opens once every call was refused or reached the upstream: until then the upstream's answers wait. */
let open!: () => void;
const opened = new Promise<void>((resolve) => (open = resolve));

before(async () => {
  upstream = await hostileUpstream(async (_received, response) => {
    reached++;
    await opened;
    response.writeHead(200, { 'content-type': 'application/json' });
    const usage = { input_tokens: 20, output_tokens: 30, total_tokens: 50 };
    response.end(JSON.stringify({ id: `resp_${reached}`, object: 'response.compaction', created_at: 1, output: [], usage }));
  });
  gw = await gatewayBefore(upstream, 'openai');
});
after(async () => {
  await gw?.stop();
  await upstream?.close();
});

test('forty relayed compactions at once on a quota that holds two: two reach the upstream at most, the others are refused', async () => {
  // A compaction asks no output limit: each holds its input and 16,384 output tokens at the default 1.5 USD per million
  // (about 24,600 µ); 50,000 µ hold two at a time.
  const { secret, tokenId } = await quotaToken(gw, 'quota-compact', 0.05);
  const client = new OpenAI({ apiKey: secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  let refused = 0;
  const outcomes = Array.from({ length: CALLS }, () =>
    client.responses.compact({ model: 'up-model', input: 'compact this conversation please' }).then(
      (compacted) => (assert.equal(compacted.object, 'response.compaction'), 'answered' as const),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.PermissionDeniedError, String(error));
        assert.match(error.message, /quota/);
        refused++;
        return 'refused' as const;
      },
    ),
  );
  await eventually(() => refused + reached >= CALLS, 'every call refused or upstream', { withinMs: 60_000, everyMs: 5 });
  open();
  const answered = (await Promise.all(outcomes)).filter((outcome) => outcome === 'answered').length;
  assert.ok(answered >= 1 && answered <= 2, `${answered} of ${CALLS} answered`);
  assert.equal(reached, answered, 'a refused compaction never reaches the upstream');
  await eventually(async () => (await spentMicros(gw, tokenId)) >= answered * 55, 'the answered compactions charged', {
    withinMs: 60_000,
    everyMs: 5,
  });
  // Each charged by its usage: 20 input tokens at 0.5 and 30 output at 1.5 USD per million.
  assert.equal(await spentMicros(gw, tokenId), answered * (20 * 0.5 + 30 * 1.5));
});

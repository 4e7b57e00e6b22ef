// Many charges at once (relayed and simulated, several tokens and models, through the official SDK) leave the ledger, each token's spent amount, the day totals and the call counts agreeing with each other and with what the answers said they used.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { gatewayBefore, hostileUpstream, type HostileUpstream, type ReceivedRequest } from '../helpers/hostile-upstream.ts';
import { eventually } from '../helpers/eventually.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';
import { quotaToken } from '../helpers/quota.ts';
import { CHARGES_BUCKET } from '../../electron/gateway/storage/usage-stats-repo.ts';

/** Calls per token and model, all sent at once. */
const CALLS = 25;
const TOKENS = 3;

/** An OpenAI chat answer whose usage comes from the prompt (`in=N out=M`), so every call costs its own amount. */
function answerChat(received: ReceivedRequest, response: ServerResponse): void {
  const body = JSON.parse(received.body.toString('utf8')) as { model: string; messages: { content: string }[] };
  const [, input, output] = /in=(\d+) out=(\d+)/.exec(body.messages[0]!.content)!;
  const usage = { prompt_tokens: Number(input), completion_tokens: Number(output), total_tokens: Number(input) + Number(output) };
  response.writeHead(200, { 'content-type': 'application/json' });
  const message = { role: 'assistant', content: 'Counted.' };
  response.end(
    JSON.stringify({
      id: 'chatcmpl-up',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: 'stop' }],
      usage,
    }),
  );
}

interface Totals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  amount_micros: number;
}

/** The stored figures of `gw` once its queued writes are committed: per token the spent amount and the ledger's sum, and the day totals beside the ledger's grouping. */
function stored(gw: TestGateway) {
  const { db, writes } = gw.gateway.context;
  writes.flush();
  const spent = db.prepare('SELECT token_id, used_micros FROM tokens WHERE used_micros > 0 ORDER BY token_id').all() as {
    token_id: string;
    used_micros: number;
  }[];
  const ledgerByToken = db
    .prepare('SELECT token_id, SUM(amount_micros) AS used_micros FROM usage_records GROUP BY token_id ORDER BY token_id')
    .all();
  const days = db
    .prepare(
      `SELECT day, account_id, token_id, model, billed AS calls, input_tokens, output_tokens, amount_micros FROM stats_daily WHERE bucket = ${CHARGES_BUCKET} ORDER BY day, token_id, model`,
    )
    .all();
  const ledgerByDay = db
    .prepare(
      `SELECT date(created_at / 1000, 'unixepoch') AS day, account_id, token_id, model, COUNT(*) AS calls, SUM(input_tokens) AS input_tokens,
              SUM(output_tokens) AS output_tokens, SUM(amount_micros) AS amount_micros
         FROM usage_records GROUP BY day, token_id, model ORDER BY day, token_id, model`,
    )
    .all();
  const records = db.prepare('SELECT token_id, model, input_tokens, output_tokens, amount_micros FROM usage_records').all() as ({
    token_id: string;
    model: string;
  } & Totals)[];
  const counted = db
    .prepare(
      'SELECT token_id, model, SUM(calls) AS calls, SUM(errors) AS errors FROM stats_daily WHERE bucket >= 0 GROUP BY token_id, model ORDER BY token_id, model',
    )
    .all();
  const ledgerCalls = db
    .prepare('SELECT token_id, model, COUNT(*) AS calls, 0 AS errors FROM usage_records GROUP BY token_id, model ORDER BY token_id, model')
    .all();
  return { spent, ledgerByToken, days, ledgerByDay, records, counted, ledgerCalls };
}

/** Sends CALLS calls at once per token and model through the OpenAI SDK; returns what each answer said it used, per token and model. */
async function burst(url: string, secrets: string[], models: string[], prompt: (call: number) => string) {
  const answered = new Map<string, Totals>();
  await Promise.all(
    secrets.flatMap((secret, tokenIndex) => {
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: secret, maxRetries: 0 });
      return models.flatMap((model) =>
        Array.from({ length: CALLS }, async (_, call) => {
          const reply = await client.chat.completions.create({ model, messages: [{ role: 'user', content: prompt(call + tokenIndex) }] });
          const key = `${tokenIndex} ${model}`;
          const totals = answered.get(key) ?? { calls: 0, input_tokens: 0, output_tokens: 0, amount_micros: 0 };
          totals.calls += 1;
          totals.input_tokens += reply.usage!.prompt_tokens;
          totals.output_tokens += reply.usage!.completion_tokens;
          answered.set(key, totals);
        }),
      );
    }),
  );
  return answered;
}

/** The ledger's figures per token index and model, beside `answered`. */
function ledgerTotals(records: ReturnType<typeof stored>['records'], tokenIds: string[]) {
  const totals = new Map<string, Totals>();
  for (const record of records) {
    const key = `${tokenIds.indexOf(record.token_id)} ${record.model}`;
    const sum = totals.get(key) ?? { calls: 0, input_tokens: 0, output_tokens: 0, amount_micros: 0 };
    sum.calls += 1;
    sum.input_tokens += record.input_tokens;
    sum.output_tokens += record.output_tokens;
    totals.set(key, sum);
  }
  return totals;
}

describe('the usage ledger after many concurrent charges', () => {
  let upstream: HostileUpstream;
  let relayed: TestGateway;
  let simulated: TestGateway;
  before(async () => {
    upstream = await hostileUpstream(answerChat);
    relayed = await gatewayBefore(upstream, 'openai');
    simulated = await startGateway();
  });
  after(async () => {
    await relayed.stop();
    await simulated.stop();
    await upstream.close();
  });

  for (const side of ['relayed', 'simulated'] as const) {
    test(`${side}: each token's spent amount is its ledger's sum, the day totals are the ledger's grouping, and each call is recorded as answered`, async () => {
      const gw = side === 'relayed' ? relayed : simulated;
      const models = side === 'relayed' ? ['gpt-a', 'gpt-b'] : ['sim-chat', 'sim-echo'];
      const tokens = await Promise.all(Array.from({ length: TOKENS }, (_, index) => quotaToken(gw, `acct-${side}-${index}`, 1_000)));
      const answered = await burst(
        gw.url,
        tokens.map((token) => token.secret),
        models,
        (call) => `in=${10 + call} out=${100 + 7 * call}`,
      );
      // A relayed answer is charged as its last bytes pass, and a call counted as its response closes: a moment after the client may have read it.
      const expected = TOKENS * models.length * CALLS;
      const figures = await eventually(() => {
        const now = stored(gw);
        const counted = (now.counted as { calls: number }[]).reduce((sum, row) => sum + row.calls, 0);
        return now.records.length >= expected && counted >= expected && now;
      }, 'every call charged and counted');
      assert.equal(figures.records.length, expected, 'one ledger record per call');
      assert.deepEqual(
        ledgerTotals(
          figures.records,
          tokens.map((token) => token.tokenId),
        ),
        new Map([...answered].map(([key, totals]) => [key, { ...totals, amount_micros: 0 }])),
        'the ledger holds what each answer said it used',
      );
      assert.equal(figures.spent.length, TOKENS);
      assert.deepEqual(figures.spent, figures.ledgerByToken, "each token's spent amount is the sum of its ledger");
      assert.ok(figures.spent.every((token) => token.used_micros > 0));
      assert.deepEqual(figures.days, figures.ledgerByDay, 'the day totals are the ledger grouped by day, token and model');
      assert.deepEqual(figures.counted, figures.ledgerCalls, "the dashboard's call counts: every call once, none an error");
    });
  }
});

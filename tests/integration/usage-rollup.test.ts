// Integration tests of the usage ledger's roll-up: old records become per-day totals, spent amounts, quotas and totals stay the same.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { STORAGE_LIMITS } from '../../electron/gateway/services/storage-limits.ts';
import { manualClock } from '../helpers/clock.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

type Totals = { token_id: string; calls: number; input_tokens: number; output_tokens: number; amount_micros: number };

describe('usage roll-up', () => {
  const clock = manualClock();
  let gw: TestGateway;
  let local: OpenAI;
  let team: OpenAI;
  let teamId: string;
  const admin = (method: string, path: string, body?: unknown) =>
    request(`${gw.url}/admin/api${path}`, method, { token: gw.gateway.adminToken, ...(body !== undefined && { body }) });
  const spent = async () =>
    Object.fromEntries(((await admin('GET', '/tokens')).body as { token_id: string; used: number }[]).map((t) => [t.token_id, t.used]));
  const count = (table: string) => (gw.gateway.context.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  /** Per-token totals over the raw records and the daily roll-ups together. */
  const totals = (): Totals[] =>
    gw.gateway.context.db
      .prepare(
        `SELECT token_id, SUM(calls) AS calls, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(amount_micros) AS amount_micros
           FROM (SELECT token_id, 1 AS calls, input_tokens, output_tokens, amount_micros FROM usage_records
                 UNION ALL SELECT token_id, calls, input_tokens, output_tokens, amount_micros FROM usage_daily)
          GROUP BY token_id ORDER BY token_id`,
      )
      .all() as Totals[];
  const chat = (client: OpenAI, model: string, text: string) =>
    client.chat.completions.create({ model, messages: [{ role: 'user', content: text }] });

  before(async () => {
    gw = await startGateway({ clock });
    local = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    // A call that could cost more than the quota left is refused before it starts: the quota allows the first call whole, then is cut below it.
    const created = await admin('POST', '/tokens', { account: 'team', name: 'ci', quota: 0.1 });
    teamId = created.body.token.token_id;
    team = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: created.body.secret, maxRetries: 0 });
  });
  after(() => gw.stop());

  test('records older than 90 days are rolled up at write time; spent amounts, quotas and totals are unchanged', async () => {
    for (let day = 0; day < 3; day++) {
      for (const model of ['gpt-4o-mini', 'sim-chat', 'gpt-4o-mini'])
        await chat(local, model, `day ${day} with ${model}, a few words more`);
      clock.advance(24 * 60 * 60 * 1000);
    }
    await chat(team, 'gpt-4o-mini', 'spend the whole quota');
    await admin('PUT', `/tokens/${teamId}`, { quota: 0.000001 });
    await assert.rejects(chat(team, 'gpt-4o-mini', 'and more'), OpenAI.PermissionDeniedError);
    const spentBefore = await spent();
    const totalsBefore = totals();
    assert.equal(count('usage_records'), 10);

    clock.advance(STORAGE_LIMITS.usageRawMaxAgeMs + 1);
    const fresh = await chat(local, 'sim-chat', 'a new call after three months');

    const raw = gw.gateway.context.db.prepare('SELECT token_id, created_at FROM usage_records').all() as {
      token_id: string;
      created_at: number;
    }[];
    assert.deepEqual(
      raw,
      [{ token_id: totalsBefore.find((t) => t.token_id !== teamId)!.token_id, created_at: clock.now() }],
      'only the new call stays a raw record',
    );
    const days = gw.gateway.context.db.prepare('SELECT day, model, calls FROM usage_daily ORDER BY day, token_id, model').all();
    assert.deepEqual(days, [
      { day: '2026-11-22', model: 'gpt-4o-mini', calls: 2 },
      { day: '2026-11-22', model: 'sim-chat', calls: 1 },
      { day: '2026-11-23', model: 'gpt-4o-mini', calls: 2 },
      { day: '2026-11-23', model: 'sim-chat', calls: 1 },
      { day: '2026-11-24', model: 'gpt-4o-mini', calls: 2 },
      { day: '2026-11-24', model: 'sim-chat', calls: 1 },
      { day: '2026-11-25', model: 'gpt-4o-mini', calls: 1 },
    ]);

    const spentAfter = await spent();
    const newAmount = (gw.gateway.context.db.prepare('SELECT amount_micros FROM usage_records').get() as { amount_micros: number })
      .amount_micros;
    for (const [tokenId, used] of Object.entries(spentBefore)) {
      const expected = tokenId === teamId || !totalsBefore.some((t) => t.token_id === tokenId) ? used : used + newAmount / 1_000_000;
      assert.ok(Math.abs(spentAfter[tokenId]! - expected) < 1e-9, `${tokenId}: ${spentAfter[tokenId]} vs ${expected}`);
    }
    const totalsAfter = totals().map((t) =>
      t.token_id === teamId
        ? t
        : {
            ...t,
            calls: t.calls - 1,
            input_tokens: t.input_tokens - fresh.usage!.prompt_tokens,
            output_tokens: t.output_tokens - fresh.usage!.completion_tokens,
            amount_micros: t.amount_micros - newAmount,
          },
    );
    assert.deepEqual(totalsAfter, totalsBefore, 'the daily totals hold exactly what the raw records held');
    await assert.rejects(chat(team, 'gpt-4o-mini', 'still over quota'), OpenAI.PermissionDeniedError);
  });

  test('a failing roll-up step loses nothing and never fails the call', async () => {
    const errors: unknown[] = [];
    gw.gateway.events.on('error', (error) => errors.push(error));
    gw.gateway.context.db.exec('ALTER TABLE usage_daily RENAME TO usage_daily_away');
    try {
      clock.advance(STORAGE_LIMITS.usageRawMaxAgeMs + 1);
      const before = count('usage_records');
      const answer = await chat(local, 'sim-chat', 'billed even when the roll-up fails');
      assert.ok(answer.choices[0]!.message.content);
      assert.equal(count('usage_records'), before + 1, 'the failed step rolled back; the new call is recorded');
      assert.equal(errors.length, 1);
    } finally {
      gw.gateway.context.db.exec('ALTER TABLE usage_daily_away RENAME TO usage_daily');
    }
  });
});

describe('usage roll-up after the clock was set back', () => {
  const clock = manualClock();
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ clock });
  });
  after(() => gw.stop());

  test('records written while the clock stood more than a day ahead are rolled up at the next write once it is set back', async () => {
    const local = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
    const chat = (text: string) => local.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: text }] });
    const raw = () => gw.gateway.context.db.prepare('SELECT created_at FROM usage_records ORDER BY id').all() as { created_at: number }[];
    const start = clock.now();
    await chat('a call at the real time');
    // The clock set ten days ahead (an admin or test clock trying out an expiry), three calls charged then.
    const ahead = 10 * 24 * 60 * 60 * 1000;
    clock.advance(ahead);
    for (const text of ['one', 'two', 'three']) await chat(`a call ten days ahead: ${text}`);
    // Set back to the real time, a few minutes on.
    clock.advance(-ahead + 5 * 60 * 1000);
    await chat('a call after the clock was set back');
    assert.deepEqual(
      raw().map((row) => row.created_at),
      [start, clock.now()],
      'the three records dated ten days ahead left the raw ledger',
    );
    const days = gw.gateway.context.db.prepare('SELECT day, calls FROM usage_daily ORDER BY day').all();
    assert.deepEqual(days, [{ day: '2026-12-02', calls: 3 }]);
  });
});

// A token's quota holds for 3D tasks under concurrency: 40 creations at once hold their price until each task is charged, so no more run than the quota pays for, and a finished task gives its hold back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { manualClock } from '../helpers/clock.ts';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';
import { quotaToken, spentUsd } from '../helpers/quota.ts';

const CALLS = 40;
const DURATION = 1000;

describe('a quota holds for 3D tasks under concurrency', () => {
  const clock = manualClock();
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ clock, sim3dMs: DURATION });
  });
  after(() => gw.stop());

  test('40 creations at once: the tasks the quota cannot pay for are refused with 403, and finished tasks give their hold back', async () => {
    // sim-3d costs 0.2 USD a task (and its tokens): 0.5 USD pays for two running at once, with room for a short chat after.
    const { secret, tokenId } = await quotaToken(gw, 'quota-3d', 0.5);
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, index) =>
        request(`${gw.url}/v1/3d/generations`, 'POST', { token: secret, body: { model: 'sim-3d', prompt: `teapot ${index}` } }),
      ),
    );
    const ok = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 403);
    assert.equal(ok.length, 2, 'two tasks run at once');
    assert.equal(refused.length, CALLS - 2, JSON.stringify(answers.find((answer) => answer.status !== 200 && answer.status !== 403)?.body));
    for (const answer of refused) assert.match(answer.body.error.message, /quota/);
    const tasks = (gw.gateway.context.db.prepare('SELECT COUNT(*) AS n FROM tasks3d WHERE token_id = ?').get(tokenId) as { n: number }).n;
    assert.equal(tasks, 2, 'a refused creation submits nothing');

    clock.advance(DURATION);
    for (const answer of ok) {
      const done = await request(`${gw.url}/v1/3d/generations/${answer.body.task_id}`, 'GET', { token: secret });
      assert.equal(done.body.status, 'SUCCESS');
    }
    const spent = await spentUsd(gw, tokenId);
    assert.ok(spent >= 0.4 && spent < 0.49, `charged ${spent} USD for two tasks`);
    // What is left pays for a short chat only once the finished tasks hold nothing.
    const client = new OpenAI({ apiKey: secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const chat = await client.chat.completions.create({ model: 'sim-chat', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(chat.choices[0]?.message.content);
  });
});

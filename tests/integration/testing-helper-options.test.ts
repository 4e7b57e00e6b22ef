// The gatehouse/testing options that mirror serve's (simReviewMs, sim3dMs, modelAliases, unrouted) reach the gateway, and wrong ones are refused before it starts, naming the option.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { startGatehouse, type Gatehouse, type StartGatehouseOptions } from 'gatehouse/testing';

/** A call of the portrait or 3D API with the gateway's token; answers the JSON body. */
async function call(gatehouse: Gatehouse, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${gatehouse.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${gatehouse.token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

test('simReviewMs and sim3dMs of 0 give a portrait verdict and a finished 3D task at the first read, with no clock moved', async () => {
  await using gatehouse = await startGatehouse({ simReviewMs: 0, sim3dMs: 0 });
  const portrait = async (method: string, path: string, body?: unknown) =>
    (await call(gatehouse, method, `/v1/portrait${path}`, body))['data'] as Record<string, string>;
  const group = await portrait('POST', '/groups', { name: 'instant' });
  const asset = await portrait('POST', '/assets', {
    group_id: group['group_id'],
    url: 'https://cdn.example.com/anna.png',
    asset_type: 'Image',
  });
  assert.equal((await portrait('GET', `/assets/${asset['asset_id']}`))['status'], 'Active');
  const task = await call(gatehouse, 'POST', '/v1/3d/generations', { model: 'sim-3d', prompt: 'a ceramic teapot' });
  const done = await call(gatehouse, 'GET', `/v1/3d/generations/${String(task['task_id'])}`);
  assert.deepEqual([done['status'], done['progress']], ['SUCCESS', '100%']);
  assert.equal((await gatehouse.clock.get()).offset_ms, 0, 'no clock was moved');
});

test('modelAliases lists the alias and answers it as the model it stands for', async () => {
  await using gatehouse = await startGatehouse({ modelAliases: { 'team-model': 'sim-chat' } });
  const openai = new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, maxRetries: 0 });
  const ids = (await openai.models.list()).data.map((model) => model.id);
  assert.ok(ids.includes('team-model'), `listed: ${ids.join(', ')}`);
  const answer = await openai.chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'hello' }] });
  assert.ok((answer.choices[0]?.message.content ?? '').length > 0);
  const entry = await gatehouse.journal.last();
  assert.equal(entry?.model, 'team-model');
});

test("unrouted: 'reject' answers a model no channel serves with the protocol's 404, where the default simulates it", async () => {
  const ask = async (gatehouse: Gatehouse) =>
    new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, maxRetries: 0 }).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
  {
    await using simulating = await startGatehouse();
    assert.ok((await ask(simulating)).choices.length > 0, 'by default a gateway with no channel simulates every model');
  }
  await using rejecting = await startGatehouse({ unrouted: 'reject' });
  await assert.rejects(ask(rejecting), (error: unknown) => error instanceof OpenAI.NotFoundError && /gpt-4o-mini/.test(error.message));
});

test('a wrong option is refused before the gateway starts, naming the option and what it takes', async () => {
  const refused: [StartGatehouseOptions, RegExp][] = [
    [{ simReviewMs: -1 }, /^startGatehouse: simReviewMs must be a whole number from 0 to 2147483647; got -1$/],
    [{ sim3dMs: 1.5 }, /^startGatehouse: sim3dMs must be a whole number from 0 to 2147483647; got 1\.5$/],
    [
      { replay: 'cassettes', replaySpeed: -2 },
      /^startGatehouse: replaySpeed must be a number from 0 \(as fast as possible\) to 1000; got -2$/,
    ],
    [
      { replay: 'cassettes', replayMiss: 'skip' as never },
      /^startGatehouse: replayMiss must be one of simulate, relay, error; got "skip"$/,
    ],
    [{ replay: 'cassettes', replayIgnore: ['$.messages[x]'] }, /^startGatehouse: replayIgnore .*; got "\$\.messages\[x\]"$/],
    [{ unrouted: 'never' as never }, /^startGatehouse: unrouted must be one of auto, simulate, reject; got "never"$/],
    [{ modelAliases: { same: 'same' } }, /^startGatehouse: modelAliases: Alias "same" cannot stand for itself$/],
    [{ replay: 'cassettes', replayIgnore: 'model' as never }, /^startGatehouse: replayIgnore must be a list of JSON paths; got "model"$/],
  ];
  // The options of a folder not given are left alone: a suite switches between recording and replaying with the rest unchanged.
  {
    await using switching = await startGatehouse({ replayMiss: 'error', replaySpeed: 0, recordRedact: ['authorization'] });
    assert.match(switching.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  }
  for (const [options, message] of refused) {
    await assert.rejects(
      startGatehouse(options),
      (error: unknown) => error instanceof TypeError && message.test(error.message),
      JSON.stringify(options),
    );
  }
});

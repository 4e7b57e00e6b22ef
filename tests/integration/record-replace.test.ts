// Re-recording a cassette folder (--record-replace) through the official SDK: a second recording run against a changed upstream replaces what the first run recorded of each request it makes, and a replay then answers with the new recording; requests the run does not make keep theirs.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import OpenAI from 'openai';
import { memoryChannels } from '../helpers/channels.ts';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** An upstream Gatehouse whose fixtures answer "count please" with `answers` in turn and anything else with "other". */
async function upstream(answers: string[]): Promise<TestGateway> {
  const fixtures = path.join(dirs.fresh(), 'answers.json');
  writeFileSync(
    fixtures,
    JSON.stringify({
      fixtures: [
        { match: { user: 'count please' }, sequence: answers.map((text) => ({ text })) },
        { match: { user: 'another question' }, response: { text: 'other' } },
      ],
    }),
  );
  return startGateway({ fixtures: [fixtures] });
}

/** Runs `work` against a gateway relaying to `up` with the cassette options given, stopping it after (its cassettes are then written). */
async function through(
  up: TestGateway,
  cassettes: Parameters<typeof startGateway>[0],
  work: (ask: (content: string) => Promise<string | null>) => Promise<void>,
): Promise<void> {
  const channels = memoryChannels([{ name: 'up', kind: 'openai', baseUrl: `${up.url}/v1`, key: up.token, models: ['*'] }]);
  const gateway = await startGateway({ channels, ...cassettes });
  const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.token, maxRetries: 0 });
  try {
    await work(async (content) => {
      const answer = await openai.chat.completions.create({ model: 'gpt-rerecord', messages: [{ role: 'user', content }] });
      return answer.choices[0]!.message.content;
    });
  } finally {
    await gateway.stop();
  }
}

const cassetteFiles = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort();

test("a second run with --record-replace replaces the first run's recordings of the requests it makes; replay answers with the new ones", async () => {
  const dir = dirs.fresh();
  const before = await upstream(['old one', 'old two', 'old three']);
  try {
    await through(before, { record: { dir } }, async (ask) => {
      assert.deepEqual(
        [await ask('count please'), await ask('count please'), await ask('count please'), await ask('another question')],
        ['old one', 'old two', 'old three', 'other'],
      );
    });
  } finally {
    await before.stop();
  }
  const firstRun = cassetteFiles(dir);
  assert.equal(firstRun.length, 4, firstRun.join(', '));

  const after = await upstream(['new one', 'new two']);
  try {
    await through(after, { record: { dir, replace: true } }, async (ask) => {
      assert.deepEqual([await ask('count please'), await ask('count please')], ['new one', 'new two']);
    });
  } finally {
    await after.stop();
  }
  const secondRun = cassetteFiles(dir);
  assert.equal(secondRun.length, 3, `two new recordings and the untouched one: ${secondRun.join(', ')}`);
  assert.ok(
    secondRun.every((file) => firstRun.includes(file)),
    'the new recordings take sequences 1 and 2 under the same names; the third is gone',
  );

  // Replayed with no upstream at all: the new recordings in order, past the end the last again; the other request as first recorded.
  const gone = await upstream(['never asked']);
  await gone.stop();
  await through(gone, { replay: { dir, miss: 'error', speed: 0 } }, async (ask) => {
    assert.deepEqual(
      [await ask('count please'), await ask('count please'), await ask('count please'), await ask('another question')],
      ['new one', 'new two', 'new two', 'other'],
    );
  });
});

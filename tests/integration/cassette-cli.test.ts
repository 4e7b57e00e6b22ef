// Integration tests of `gatehouse cassette list|show|prune|verify` through real CLI processes, on a folder of cassettes filed by the cassette store: a damaged
// file and a changed payload named by verify, a channel key of the secret store refused in base64 (never printed), a key's shape refused, prune dry-run first.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cassetteFileName } from '../../shared/cassette-names.ts';
import { CassetteStore } from '../../electron/gateway/providers/replay/store.ts';
import { ReplayRun } from '../../electron/gateway/providers/replay/run-record.ts';
import { systemClock } from '../../electron/gateway/time.ts';
import { answering, chatDraft } from '../helpers/cassettes.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDirs } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** The channel key the data dir's secret store holds (what an upstream would have been sent); of no common key's shape. */
const CHANNEL_KEY = 'gw-channel-Zq8Rk2LmN4pW7xY1vB3tQ9';

/** Runs `gatehouse cassette …`. */
const cassette = (...args: string[]) => runCli(['cassette', ...args], { GATEHOUSE_DATA_DIR: dirs.fresh() });

describe('gatehouse cassette list, show and verify', () => {
  let dir: string;
  let greeting: string;
  let weather: string;

  before(async () => {
    dir = dirs.fresh();
    const store = new CassetteStore(dir);
    greeting = (await store.save(chatDraft('Say hello', 'Hello there!', { channel: 'openai-main' }), 'Say hello')).file;
    weather = (await store.save(chatDraft('Weather in Paris?', 'Sunny, 21 °C'), 'Weather in Paris?')).file;
  });

  test('list prints one line per cassette: file, time, kind, channel, protocol, request, model, status, use', () => {
    const listed = cassette('list', dir);
    assert.equal(listed.code, 0, listed.stderr);
    const line = listed.lines.find((item) => item.startsWith(greeting));
    assert.ok(line, listed.stdout);
    assert.deepEqual(line.split('\t'), [
      greeting,
      '2026-11-20T10:00:00.000+00:00',
      'http',
      'relay openai-main',
      'openai',
      'POST /v1/chat/completions',
      'gpt-4o',
      '200',
      'whole',
      'unused',
    ]);
    assert.match(
      listed.lines.find((item) => item.startsWith(weather))!,
      /\tsimulate\t/,
    );
    assert.match(listed.stderr, /2 cassette\(s\) in .*; no replay run recorded/);
    const json = JSON.parse(cassette('list', dir, '--json').stdout) as { file: string; channel: string | null }[];
    assert.deepEqual(
      json.map((item) => [item.file, item.channel]).sort(),
      [
        [greeting, 'openai-main'],
        [weather, null],
      ].sort(),
    );
  });

  test('list prints every line of a big folder through a pipe (2,000 cassettes)', () => {
    const big = dirs.fresh();
    for (let index = 0; index < 2000; index++) {
      const draft = chatDraft(`prompt number ${index}`, `answer ${index}`);
      const file = cassetteFileName(draft.request.key, 'gpt-4o', `prompt number ${index}`, 1);
      writeFileSync(path.join(big, file), JSON.stringify({ format: 1, ...draft, sequence: 1 }));
    }
    const listed = cassette('list', big);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.lines.length, 2000);
    assert.ok(listed.lines.every((line) => line.endsWith('\tunused')));
  });

  test('show prints the recording, the request and the answer readably, by folder and name or by path', () => {
    for (const args of [[dir, greeting], [path.join(dir, greeting)]]) {
      const shown = cassette('show', ...args);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /recorded: {2}2026-11-20T10:00:00\.000\+00:00 from relay channel openai-main through the openai protocol/);
      assert.match(shown.stdout, /request: {3}POST \/v1\/chat\/completions model gpt-4o/);
      assert.match(shown.stdout, /response: {2}200 in 420 ms/);
      assert.match(shown.stdout, /"content": "Hello there!"/);
      assert.match(shown.stdout, /usage: {5}9 in, 4 out/);
    }
    const missing = cassette('show', dir, 'nothing.json');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nothing\.json: cannot be read/);
  });

  test('verify passes a sound folder', () => {
    const verified = cassette('verify', dir);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /2 cassette\(s\) and 0 other file\(s\) in .*: every cassette reads, no secret found/);
  });
});

/** A fresh cassette folder holding a plain chat cassette ("Say hello") and one whose answer is a payload file of `payload` ("Read this aloud"). */
async function folderWithPayload(payload: string) {
  const dir = dirs.fresh();
  const store = new CassetteStore(dir);
  const plain = (await store.save(chatDraft('Say hello', 'Hello!'), 'Say hello')).file;
  const blob = await store.saveBlob(Buffer.from(payload));
  const draft = chatDraft('Read this aloud', '');
  const withBlob = (await store.save(answering(draft, { blob }), 'Read this aloud')).file;
  return { dir, store, plain, blob, withBlob };
}

describe('gatehouse cassette verify refuses', () => {
  test('a damaged cassette, naming its file and what is wrong, and a payload file that changed', async () => {
    const { dir, plain: sound, blob, withBlob } = await folderWithPayload('RIFF…an answer too big to keep inline');
    const cut = path.join(dir, 'gpt-4o-cut-short.0123456789abcdef.json');
    writeFileSync(cut, '{"format": 1, "kind": "http", "recording": {');
    const wrongField = path.join(dir, 'notes.json');
    writeFileSync(wrongField, JSON.stringify({ format: 1, kind: 'tape' }));
    writeFileSync(path.join(dir, blob.file), 'RIFF…an answer changed after recording');

    const verified = cassette('verify', dir);
    assert.equal(verified.code, 1);
    assert.match(verified.stderr, /gatehouse: gpt-4o-cut-short\.0123456789abcdef\.json.*is not JSON/);
    assert.match(verified.stderr, /gatehouse: notes\.json kind: must be one of http, realtime, portrait, task3d/);
    assert.match(
      verified.stderr,
      new RegExp(`gatehouse: ${withBlob.replaceAll('.', '\\.')} blob: ${blob.file}.*(size or hash changed|longer)`),
    );
    assert.doesNotMatch(verified.stderr, new RegExp(sound.replaceAll('.', '\\.')));
    assert.match(verified.stderr, /3 problem\(s\)/);
    // list shows the damaged ones as such instead of failing.
    const listed = cassette('list', dir);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /notes\.json\tdamaged\tnotes\.json kind: must be one of/);
  });

  test('a realtime frame whose payload file changed, wherever the cassette keeps it', async () => {
    const dir = dirs.fresh();
    const store = new CassetteStore(dir);
    const blob = await store.saveBlob(Buffer.from('{"type":"response.output_text.delta","delta":"a long frame"}'));
    const { request, recording } = chatDraft('Hello over a socket', '');
    const session = (
      await store.save(
        {
          kind: 'realtime',
          recording: { ...recording, protocol: 'realtime' },
          request: { ...request, method: 'GET', path: '/v1/realtime' },
          frames: [{ atMs: 12, from: 'upstream', textBlob: blob } as never],
        },
        'Hello over a socket',
      )
    ).file;
    assert.equal(cassette('verify', dir).code, 0);
    writeFileSync(path.join(dir, blob.file), '{"type":"response.output_text.delta","delta":"another frame"}');
    const verified = cassette('verify', dir);
    assert.equal(verified.code, 1);
    assert.match(verified.stderr, new RegExp(`gatehouse: ${session.replaceAll('.', '\\.')} blob: ${blob.file}`));
    assert.match(cassette('show', dir, session).stdout, /\+ {4}12 ms {2}upstream {2}\(payload file\)/);
  });

  test('a channel key of the secret store in base64, naming the file and the channel, never printing the key', async () => {
    const dataDir = dirs.fresh();
    const added = runCli(
      [
        'channel',
        'add',
        '--name',
        'openai-main',
        '--kind',
        'openai',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--key-env',
        'KEY',
        '--data-dir',
        dataDir,
        '--secrets',
        'file',
      ],
      { KEY: CHANNEL_KEY },
    );
    assert.equal(added.code, 0, added.stderr);
    const dir = dirs.fresh();
    const store = new CassetteStore(dir);
    // The key, one byte off a base64 boundary, inside an answer an upstream base64-encoded (a header echo, an audio tag…).
    const encoded = Buffer.from(`key=${CHANNEL_KEY}`).toString('base64');
    const leaky = (await store.save(chatDraft('Echo my headers', `headers: ${encoded}`, { channel: 'openai-main' }), 'Echo my headers'))
      .file;
    await store.save(chatDraft('Say hello', 'Hello!'), 'Say hello');

    const verified = runCli(['cassette', 'verify', dir, '--data-dir', dataDir, '--secrets', 'file']);
    assert.equal(verified.code, 1, verified.stdout);
    assert.match(
      verified.stderr,
      new RegExp(`gatehouse: ${leaky.replaceAll('.', '\\.')}: holds the key of channel "openai-main": gw-…3tQ9\n`),
    );
    assert.ok(!verified.stderr.includes(CHANNEL_KEY) && !verified.stdout.includes(CHANNEL_KEY), 'the key itself is never printed');
    assert.match(verified.stderr, /1 problem\(s\)/);

    // Without the data dir's store the key is not known by value, and its shape is not a common one: nothing to refuse.
    const unknown = cassette('verify', dir);
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.match(unknown.stderr, /no channel key checked/);
  });

  test('a common key shape no store names (an OpenAI project key, JSON-escaped)', async () => {
    const dir = dirs.fresh();
    const store = new CassetteStore(dir);
    const escaped = [...'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12']
      .map((char, index) => (index % 2 ? `\\u00${char.charCodeAt(0).toString(16)}` : char))
      .join('');
    const draft = chatDraft('Show the config', '');
    const leaky = (await store.save(answering(draft, { text: `{"config": "${escaped}"}` }), 'Show the config')).file;
    const verified = cassette('verify', dir);
    assert.equal(verified.code, 1);
    assert.match(verified.stderr, new RegExp(`${leaky.replaceAll('.', '\\.')}: holds an OpenAI or Anthropic style key: sk-…Kl12\n`));
    assert.ok(!verified.stderr.includes('Ab12Cd34'), 'the key itself is never printed');
  });
});

describe('gatehouse cassette prune', () => {
  test('needs a replay run; lists the cassettes the run did not use; removes them and their payloads only with --yes', async () => {
    const { dir, store, plain: used, blob, withBlob: unused } = await folderWithPayload('an old spoken answer');

    const early = cassette('prune', dir);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /no replay run is recorded in .*: replay your tests with gatehouse serve --replay/);

    const run = new ReplayRun(dir, systemClock, (error) => assert.fail(String(error)));
    run.start();
    run.note(used);
    run.note(used);
    // A miss the run relayed and recorded (`--replay-miss relay`) is new, not unused.
    const fresh = chatDraft('Asked for the first time', 'New answer');
    const recordedAt = new Date(run.startedAt + 1000).toISOString();
    const recordedInRun = (await store.save({ ...fresh, recording: { ...fresh.recording, recordedAt } }, 'Asked for the first time')).file;
    await run.stop();

    const dry = cassette('prune', dir);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.lines, [`would remove ${unused}`, `would remove ${blob.file}`]);
    assert.match(
      dry.stderr,
      /1 of 3 cassette\(s\) not used by the replay run of .* and 1 payload file\(s\) only they name: run again with --yes/,
    );
    assert.ok(existsSync(path.join(dir, unused)) && existsSync(path.join(dir, blob.file)), 'a dry run removes nothing');
    assert.match(cassette('list', dir).stdout, new RegExp(`${used.replaceAll('.', '\\.')}\\t.*\\treplayed$`, 'm'));
    assert.match(cassette('list', dir).stdout, new RegExp(`${recordedInRun.replaceAll('.', '\\.')}\\t.*\\trecorded in the run$`, 'm'));

    const done = cassette('prune', dir, '--yes');
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(done.lines, [`removed ${unused}`, `removed ${blob.file}`]);
    assert.deepEqual(
      readdirSync(dir)
        .filter((name) => !name.startsWith('.'))
        .sort(),
      [used, recordedInRun].sort(),
    );
  });

  test('refuses when the last run used no cassette (it would empty the folder)', async () => {
    const dir = dirs.fresh();
    await new CassetteStore(dir).save(chatDraft('Say hello', 'Hello!'), 'Say hello');
    const run = new ReplayRun(dir, systemClock, (error) => assert.fail(String(error)));
    run.start();
    await run.stop();
    const refused = cassette('prune', dir, '--yes');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /used no cassette: pruning would remove them all/);
    assert.equal(readdirSync(dir).filter((name) => name.endsWith('.json')).length, 1);
  });
});

// `gatehouse/testing` with cassettes, imported by the package's own name as a user's suite does: startGatehouse({ replay }) and ({ record }) hand the
// folder to the gateway (relative to the working directory), cassettes.list() reads it with the replay run's use, and stop() leaves the run's record.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startGatehouse } from 'gatehouse/testing';
import { CassetteStore } from '../../electron/gateway/providers/replay/store.ts';
import { REPLAY_RUN_FILE } from '../../shared/cassette-admin.ts';
import { chatDraft } from '../helpers/cassettes.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { tempDirs } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

/** One chat turn of `sim-chat` saying `content`, through the official SDK, to a Gatehouse the test helper started. */
function ask(gatehouse: { baseURL: string; token: string }, content: string) {
  return new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, maxRetries: 0 }).chat.completions.create({
    model: 'sim-chat',
    messages: [{ role: 'user', content }],
  });
}

describe('gatehouse/testing with cassettes', () => {
  test('replay: the folder (relative to the working directory) is listed with the run, and keeps the run record after stop', async () => {
    const dir = dirs.fresh();
    const file = (await new CassetteStore(dir).save(chatDraft('Say hello', 'Hello!', { channel: 'openai-main' }), 'Say hello')).file;
    await using gatehouse = await startGatehouse({ replay: path.relative(process.cwd(), dir), replayMiss: 'error', replaySpeed: 0 });
    const folder = await gatehouse.cassettes.folder();
    assert.equal(folder.dir, dir);
    assert.equal(folder.mode, 'replay');
    assert.equal(folder.run?.replayed, 0);
    const listed = await gatehouse.cassettes.list();
    assert.deepEqual(
      listed.map((item) => [item.file, item.channel, item.model, item.replayed]),
      [[file, 'openai-main', 'gpt-4o', false]],
    );
    assert.deepEqual(await gatehouse.cassettes.list({ replayed: 'replayed' }), []);
    assert.equal((await gatehouse.cassettes.list({ text: 'hello' })).length, 1);
    await gatehouse.stop();
    assert.ok(existsSync(path.join(dir, REPLAY_RUN_FILE)), 'the run record stays in the folder');
    assert.ok(existsSync(path.join(dir, file)), 'the cassettes stay too');
  });

  test('record: the folder is listed as the one recorded into; without either, there is no folder', async () => {
    const dir = dirs.fresh();
    {
      await using gatehouse = await startGatehouse({ record: dir, recordSimulated: true, recordRedact: ['$.user'] });
      const folder = await gatehouse.cassettes.folder();
      assert.deepEqual([folder.dir, folder.mode, folder.run], [dir, 'record', null]);
    }
    await using plain = await startGatehouse();
    assert.deepEqual((await plain.cassettes.folder()).dir, null);
  });

  test('a call recorded with record (simulated) replays from its cassette under replay: the journal and the listing say which; a miss under replayMiss error is refused', async () => {
    const dir = dirs.fresh();
    let recorded: string | null;
    {
      await using recording = await startGatehouse({ record: dir, recordSimulated: true });
      recorded = (await ask(recording, 'Say hello in three words')).choices[0]!.message.content;
    }
    const file = await eventually(() => readdirSync(dir).find((name) => name.endsWith('.json')), 'the recorded cassette');

    await using replaying = await startGatehouse({ replay: dir, replayMiss: 'error' });
    assert.equal((await ask(replaying, 'Say hello in three words')).choices[0]!.message.content, recorded);
    const call = await replaying.journal.last();
    assert.equal(call?.source, 'replay');
    assert.equal(call?.cassette, file);
    assert.deepEqual(
      (await replaying.cassettes.list({ replayed: 'replayed' })).map((item) => item.file),
      [file],
    );
    await assert.rejects(ask(replaying, 'Something never recorded'), (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError);
      assert.equal(error.status, 404);
      assert.match(error.message, new RegExp(`No cassette matched this call.*${file.replaceAll('.', '\\.')}`));
      return true;
    });
  });

  test('record: a channel added through the admin API keeps its key, so a call relayed to a real upstream is recorded and replays byte for byte', async () => {
    const dir = dirs.fresh();
    await using upstream = await startGatehouse();
    const ask = (gatehouse: { baseURL: string; token: string }) =>
      new OpenAI({ baseURL: gatehouse.baseURL, apiKey: gatehouse.token, maxRetries: 0 }).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Say hello in three words' }],
      });
    let recorded: unknown;
    {
      await using recording = await startGatehouse({ record: dir });
      const added = await fetch(`${recording.url}/admin/api/channels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${recording.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'upstream', kind: 'openai', base_url: upstream.baseURL, key: upstream.token }),
      });
      assert.equal(added.status, 200, await added.text());
      recorded = await ask(recording);
      const [entry] = await recording.journal.list();
      assert.equal(entry?.source, 'relay');
    }
    await upstream.stop();
    const [cassette] = readdirSync(dir).filter((name) => name.endsWith('.json'));
    assert.match(cassette ?? '', /^gpt-4o-say-hello-in-three-words\.[0-9a-f]{16}\.json$/);
    await using replaying = await startGatehouse({ replay: dir, replayMiss: 'error', replaySpeed: 0 });
    assert.deepEqual(await ask(replaying), recorded);
  });

  test('record: stop() resolves once the cassettes of the calls already answered are written, so the folder can be read or replayed at once', async () => {
    const dir = dirs.fresh();
    const recording = await startGatehouse({ record: dir, recordSimulated: true });
    const openai = new OpenAI({ baseURL: recording.baseURL, apiKey: recording.token, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say goodbye' }] });
    await openai.chat.completions
      .create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Count to three' }] })
      .then(async (stream) => {
        for await (const chunk of stream) void chunk;
      });
    await recording.stop();
    assert.deepEqual(
      readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.split('.')[0])
        .sort(),
      ['gpt-4o-count-to-three', 'gpt-4o-say-goodbye'],
    );
  });

  test('after a replay run that used one of two recordings, gatehouse cassette prune lists the other and removes it with --yes', async () => {
    const dir = dirs.fresh();
    {
      await using recording = await startGatehouse({ record: dir, recordSimulated: true });
      await ask(recording, 'Kept because a test replays it');
      await ask(recording, 'Dropped because no test asks any more');
    }
    const files = await eventually(() => {
      const found = readdirSync(dir).filter((name) => name.endsWith('.json'));
      return found.length === 2 && found;
    }, 'both recorded cassettes');
    const kept = files.find((name) => name.includes('kept'))!;
    const dropped = files.find((name) => name.includes('dropped'))!;
    {
      await using replaying = await startGatehouse({ replay: dir, replayMiss: 'error' });
      await ask(replaying, 'Kept because a test replays it');
    }
    const dry = await runCliAsync(['cassette', 'prune', dir]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.lines, [`would remove ${dropped}`]);
    const done = await runCliAsync(['cassette', 'prune', dir, '--yes']);
    assert.deepEqual(done.lines, [`removed ${dropped}`]);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith('.json')),
      [kept],
    );
  });
});

describe('gatehouse/testing replaying across protocols', () => {
  test('a chat recorded from an Anthropic client replays to an OpenAI one, and its journal entry notes the other protocol', async () => {
    const dir = dirs.fresh();
    {
      await using recording = await startGatehouse({ record: dir, recordSimulated: true });
      const anthropic = new Anthropic({ baseURL: recording.url, apiKey: recording.token, maxRetries: 0 });
      await anthropic.messages.create({ model: 'sim-chat', max_tokens: 64, messages: [{ role: 'user', content: 'Name a colour' }] });
    }
    const file = await eventually(() => readdirSync(dir).find((name) => name.endsWith('.json')), 'the recorded cassette');
    await using replaying = await startGatehouse({ replay: dir, replayMiss: 'error' });
    const openai = new OpenAI({ baseURL: replaying.baseURL, apiKey: replaying.token, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'sim-chat', max_tokens: 64, messages: [{ role: 'user', content: 'Name a colour' }] });
    const call = await replaying.journal.last();
    assert.equal(call?.source, 'replay');
    assert.equal(call?.cassette, file);
    assert.ok(
      call?.notes?.some((note) => note.startsWith(`Replayed from ${file} (sequence 1), recorded through the anthropic protocol`)),
      JSON.stringify(call?.notes),
    );
  });

  test('a chat recorded from an OpenAI client (no max_tokens) misses for an Anthropic one naming --replay-ignore maxTokens, and replays with it', async () => {
    const dir = dirs.fresh();
    let recorded: string | null | undefined;
    {
      await using recording = await startGatehouse({ record: dir, recordSimulated: true });
      const openai = new OpenAI({ baseURL: recording.baseURL, apiKey: recording.token, maxRetries: 0 });
      const answer = await openai.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'Name a colour' }] });
      recorded = answer.choices[0]?.message.content;
    }
    await eventually(() => readdirSync(dir).find((name) => name.endsWith('.json')), 'the recorded cassette');
    const ask = (gatehouse: { url: string; token: string }) =>
      new Anthropic({ baseURL: gatehouse.url, apiKey: gatehouse.token, maxRetries: 0 }).messages.create({
        model: 'sim-chat',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Name a colour' }],
      });
    {
      await using strict = await startGatehouse({ replay: dir, replayMiss: 'error' });
      await assert.rejects(ask(strict), (error: Error) => {
        assert.match(error.message, /first field that differs is body\.maxTokens \(recorded absent, this call 1024\)/);
        assert.match(error.message, /--replay-ignore maxTokens/);
        return true;
      });
    }
    await using lenient = await startGatehouse({ replay: dir, replayMiss: 'error', replayIgnore: ['maxTokens'] });
    const answer = await ask(lenient);
    assert.deepEqual(
      answer.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      [recorded],
    );
    assert.equal((await lenient.journal.last())?.source, 'replay');
  });
});

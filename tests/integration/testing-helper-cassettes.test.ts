// `gatehouse/testing` with cassettes, imported by the package's own name as a user's suite does: startGatehouse({ replay }) and ({ record }) hand the
// folder to the gateway (relative to the working directory), cassettes.list() reads it with the replay run's use, and stop() leaves the run's record.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { startGatehouse } from 'gatehouse/testing';
import { CassetteStore } from '../../electron/gateway/providers/replay/store.ts';
import { REPLAY_RUN_FILE } from '../../shared/cassette-admin.ts';
import { chatDraft } from '../helpers/cassettes.ts';
import { tempDirs } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

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
});

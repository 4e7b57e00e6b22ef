// Unit tests of the cassette options: --record and --replay with their companions (--record-replace among them), their GATEHOUSE_* variables, and the usage errors of a bad value or a companion without its folder.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { resolveServeOptions, UsageError } from '../../../electron/gateway/options/serve-options.ts';

const resolve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  resolveServeOptions([...args, '--settings-file', 'off'], env, '/tmp/gatehouse-none');
const refused = (args: string[], message: RegExp, env: NodeJS.ProcessEnv = {}) =>
  assert.throws(
    () => resolve(args, env),
    (error: unknown) => error instanceof UsageError && message.test(error.message),
  );

test('--record takes a folder, --record-simulated and --record-redact (paths or header names, comma-separated) go with it', () => {
  assert.equal(resolve([]).record, undefined);
  assert.deepEqual(resolve(['--record', 'tapes', '--record-simulated', '--record-redact', '$.user, messages[0].content,x-team']).record, {
    dir: path.resolve('tapes'),
    simulated: true,
    replace: false,
    redact: ['$.user', 'messages[0].content', 'x-team'],
  });
  assert.deepEqual(resolve([], { GATEHOUSE_RECORD: 'tapes', GATEHOUSE_RECORD_SIMULATED: '1' }).record, {
    dir: path.resolve('tapes'),
    simulated: true,
    replace: false,
    redact: [],
  });
  refused(['--record-redact', '$.user'], /--record-redact needs --record DIR/);
  refused(['--record-simulated'], /--record-simulated needs --record DIR/);
  refused(['--record', 'tapes', '--record-redact', 'messages[x'], /--record-redact: "messages\[x" is not a JSON path/);
});

test('--record-replace (or GATEHOUSE_RECORD_REPLACE=1) re-records a folder; it needs --record and another folder than --replay', () => {
  assert.equal(resolve(['--record', 'tapes']).record?.replace, false);
  assert.equal(resolve(['--record', 'tapes', '--record-replace']).record?.replace, true);
  assert.equal(resolve([], { GATEHOUSE_RECORD: 'tapes', GATEHOUSE_RECORD_REPLACE: '1' }).record?.replace, true);
  assert.equal(resolve(['--record', 'new-tapes', '--record-replace', '--replay', 'tapes']).record?.replace, true);
  refused(['--record-replace'], /--record-replace needs --record DIR/);
  refused(
    ['--record', 'tapes', '--record-replace', '--replay', './tapes'],
    /--record-replace re-records a folder: it cannot also be the --replay folder/,
  );
});

test('--replay takes a folder; --replay-miss, --replay-ignore and --replay-speed are checked', () => {
  assert.deepEqual(resolve(['--replay', 'tapes']).replay, { dir: path.resolve('tapes'), miss: 'simulate', ignore: [], speed: 1 });
  assert.deepEqual(
    resolve([], {
      GATEHOUSE_REPLAY: 'tapes',
      GATEHOUSE_REPLAY_MISS: 'error',
      GATEHOUSE_REPLAY_IGNORE: '$.temperature,turns[*].text',
      GATEHOUSE_REPLAY_SPEED: '0',
    }).replay,
    { dir: path.resolve('tapes'), miss: 'error', ignore: ['$.temperature', 'turns[*].text'], speed: 0 },
  );
  assert.equal(resolve(['--replay', 'tapes', '--replay-speed', '2.5']).replay?.speed, 2.5);
  refused(['--replay', 'tapes', '--replay-miss', 'ask'], /--replay-miss must be one of simulate, relay, error; got "ask"/);
  refused(['--replay', 'tapes', '--replay-speed=-1'], /--replay-speed must be a number from 0/);
  refused(['--replay', 'tapes', '--replay-speed', 'fast'], /--replay-speed must be a number from 0/);
  refused(['--replay-miss', 'error'], /--replay-miss needs --replay DIR/);
  refused([], /GATEHOUSE_REPLAY_SPEED needs --replay DIR/, { GATEHOUSE_REPLAY_SPEED: '2' });
});

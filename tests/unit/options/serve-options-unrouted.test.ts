// Unit tests of --unrouted: simulate by default, reject on request by flag or GATEHOUSE_UNROUTED, anything else a usage error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveServeOptions, UsageError } from '../../../electron/gateway/options/serve-options.ts';

const resolve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  resolveServeOptions([...args, '--settings-file', 'off'], env, '/tmp/gatehouse-none');

test('unrouted models are simulated unless --unrouted or GATEHOUSE_UNROUTED says reject', () => {
  assert.equal(resolve([]).unrouted, 'simulate');
  assert.equal(resolve(['--unrouted', 'reject']).unrouted, 'reject');
  assert.equal(resolve([], { GATEHOUSE_UNROUTED: 'reject' }).unrouted, 'reject');
  assert.equal(resolve(['--unrouted', 'simulate'], { GATEHOUSE_UNROUTED: 'reject' }).unrouted, 'simulate', 'the flag wins');
  assert.throws(
    () => resolve(['--unrouted', 'drop']),
    (error: unknown) => error instanceof UsageError && /--unrouted must be one of simulate, reject/.test(error.message),
  );
});

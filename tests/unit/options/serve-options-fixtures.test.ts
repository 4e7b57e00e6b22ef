// Unit tests of the fixture options: --fixtures repeats, GATEHOUSE_FIXTURES is a path list, --strict and GATEHOUSE_STRICT turn strict mode on.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { resolveServeOptions, UsageError } from '../../../electron/gateway/options/serve-options.ts';

const resolve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  resolveServeOptions([...args, '--settings-file', 'off'], env, '/tmp/gatehouse-none');

test('--fixtures repeats; GATEHOUSE_FIXTURES is a list separated like PATH; a flag wins over the variable', () => {
  assert.deepEqual(resolve([]).fixtures, []);
  assert.deepEqual(resolve(['--fixtures', 'a.json', '--fixtures', 'dir']).fixtures, ['a.json', 'dir']);
  assert.deepEqual(resolve([], { GATEHOUSE_FIXTURES: ['a.json', 'dir', ''].join(path.delimiter) }).fixtures, ['a.json', 'dir']);
  assert.deepEqual(resolve(['--fixtures', 'b.yaml'], { GATEHOUSE_FIXTURES: 'a.json' }).fixtures, ['b.yaml']);
});

test('--strict and GATEHOUSE_STRICT=1 turn strict mode on; another value is a usage error', () => {
  assert.equal(resolve([]).strict, false);
  assert.equal(resolve(['--strict']).strict, true);
  assert.equal(resolve([], { GATEHOUSE_STRICT: '1' }).strict, true);
  assert.equal(resolve([], { GATEHOUSE_STRICT: '0' }).strict, false);
  assert.throws(
    () => resolve([], { GATEHOUSE_STRICT: 'maybe' }),
    (error: unknown) => error instanceof UsageError && /GATEHOUSE_STRICT must be 1, true or on, or 0, false or off/.test(error.message),
  );
});
